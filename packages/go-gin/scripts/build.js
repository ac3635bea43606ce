// @ts-check
// Builds bin/server and build/dyno-build.json, the manifest the harness reads: the shared Go build of
// @dyno/scenarios (scenarios/src/build/go-build.js). Run by `pnpm install` (prepare) and by the harness.
import { fileURLToPath } from 'node:url'
import { buildGoSut } from '@dyno/scenarios/build/go-build.js'

const outcome = buildGoSut({
  packageDir: fileURLToPath(new URL('..', import.meta.url)),
  name: 'go-gin',
  frameworkModule: 'github.com/gin-gonic/gin'
})
if (outcome === 'failed') process.exitCode = 1

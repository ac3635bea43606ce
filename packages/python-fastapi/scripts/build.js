// @ts-check
// Builds .venv and build/dyno-build.json, the manifest the harness reads: the shared Python build of
// @dyno/scenarios (scenarios/src/build/python-venv.js). Run by `pnpm install` (prepare) and by the harness.
import { fileURLToPath } from 'node:url'
import { buildPythonSut } from '@dyno/scenarios/build/python-venv.js'

const outcome = buildPythonSut({
  packageDir: fileURLToPath(new URL('..', import.meta.url)),
  name: 'python-fastapi',
  framework: 'fastapi',
  components: ['fastapi', 'starlette', 'pydantic', 'uvicorn', 'uvloop', 'httptools', 'redis', 'asyncpg'],
  minPython: [3, 11]
})
if (outcome === 'failed') process.exitCode = 1

// @ts-check
// Builds .venv and build/dyno-build.json, the manifest the harness reads: the shared Python build of
// @dyno/scenarios (scenarios/src/build/python-venv.js). Run by `pnpm install` (prepare) and by the harness.
import { fileURLToPath } from 'node:url'
import { buildPythonSut } from '@dyno/scenarios/build/python-venv.js'

const outcome = buildPythonSut({
  packageDir: fileURLToPath(new URL('..', import.meta.url)),
  name: 'python-flask',
  framework: 'Flask',
  components: ['Flask', 'Werkzeug', 'gunicorn', 'redis', 'psycopg', 'psycopg-pool'],
  minPython: [3, 10]
})
if (outcome === 'failed') process.exitCode = 1

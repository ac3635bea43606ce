// @ts-check
import { mkdtempSync, readdirSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { dynoRun } from '../support/dyno-run.js'
import { trackRuns } from '../support/leftover-processes.js'
import { runCli } from '../support/run-cli.js'
import { writtenIndex } from '../support/written-run.js'

const runs = trackRuns()

// A machine with none of the services: PATH holds only node, and no PostgreSQL install is looked for.
const nodeOnly = mkdtempSync(join(tmpdir(), 'dyno-path-'))
symlinkSync(process.execPath, join(nodeOnly, 'node'))
const bareEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !['REDIS_URL', 'DATABASE_URL', 'CI'].includes(name))),
  PATH: nodeOnly,
  DYNO_POSTGRES_ROOT: '/nonexistent'
}

it.each([['', 'skipped', 0], ['true', 'failed', 1]])('with CI=%j, runs everything else ' +
  'and ends redis and postgres %s with how to get them', async (ci, status, exitCode) => {
  const out = mkdtempSync(join(tmpdir(), 'dyno-no-services-'))
  const result = await runCli(
    dynoRun({
      verbose: true,
      disturbedAbovePct: 99,
      frameworks: 'node-http',
      scenarios: 'json,redis,sqlite,postgres',
      durationSec: 0.5,
      warmupSec: 0,
      launchWarmupSec: 0,
      connections: 4,
      engine: 'autocannon',
      out
    }),
    {
      env: { ...bareEnv, CI: ci }
    }
  )
  const [runId] = readdirSync(out)
  runs.add(runId)
  const index = writtenIndex(join(out, runId))
  const byScenario = Object.fromEntries(index.results.map((/** @type {{ scenario: string }} */ entry) => [entry.scenario, entry]))
  expect(byScenario.json.status).toBe('ok')
  expect(byScenario.sqlite.status).toBe('ok')
  expect(byScenario.redis).toMatchObject({ status })
  expect(byScenario.redis.reason).toContain('install redis-server (apt-get install redis-server) or set REDIS_URL')
  expect(byScenario.postgres).toMatchObject({ status })
  expect(byScenario.postgres.reason).toContain('install PostgreSQL (apt-get install postgresql), or set DATABASE_URL')
  expect(result.stderr).toContain('dyno: redis unavailable')
  expect(result.stdout).toMatch(/node-http .*redis .* (skipped|failed)/)
  expect(result.code).toBe(exitCode)
}, 60_000)

afterAll(() => runs.expectNoneLeft(expect))

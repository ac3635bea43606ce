// @ts-check
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { PACKAGES_DIR } from '../../src/platform/paths.js'
import { runEnv } from '../../src/platform/env/run-env.js'
import { freePort } from '../../src/platform/hosts/free-port.js'
import { startSut } from '../../src/subjects/sut-process/start-sut.js'
import { loadSut } from '../../src/subjects/suts/discover-suts.js'
import { dynoRun } from '../support/dyno-run.js'
import { trackRuns } from '../support/leftover-processes.js'
import { runCli } from '../support/run-cli.js'
import { writtenIndex } from '../support/written-run.js'

const runs = trackRuns()

it('a SUT given a DATABASE_URL nobody answers exits at start, naming the variable, instead of hanging', async () => {
  const deadPort = await freePort()
  const startedAt = Date.now()
  const readyTimeoutSec = 20
  const attempt = startSut(loadSut(`${PACKAGES_DIR}node-http`), {
    readyTimeoutSec,
    stopGraceSec: 2,
    env: { ...runEnv(runs.add(`wrong-url-${process.pid}`)), DATABASE_URL: `postgres://dyno:secret@127.0.0.1:${deadPort}/postgres` }
  })
  await expect(attempt).rejects.toMatchObject({ code: 'DYNO_ERR_SUT_EXITED' })
  await expect(attempt).rejects.toThrow(
    new RegExp(`cannot reach DATABASE_URL=postgres://dyno:\\*\\*\\*@127\\.0\\.0\\.1:${deadPort}/postgres: .*ECONNREFUSED`)
  )
  // It exited (DYNO_ERR_SUT_EXITED, not NOT_READY), well before the ready timeout it would otherwise have waited out.
  expect(Date.now() - startedAt).toBeLessThan(readyTimeoutSec * 1000 * 0.75)
}, 30_000)

it('the harness given a DATABASE_URL nobody answers skips the postgres scenarios with the reason, and fails them under CI', async () => {
  const deadPort = await freePort()
  for (const ci of ['', 'true']) {
    const out = mkdtempSync(join(tmpdir(), 'dyno-wrong-url-'))
    const result = await runCli(
      dynoRun({
        frameworks: 'node-http',
        scenarios: 'json,postgres',
        repeats: 1,
        durationSec: 0.5,
        warmupSec: 0,
        connections: 4,
        engine: 'autocannon',
        out
      }),
      {
        env: { ...process.env, CI: ci, DATABASE_URL: `postgres://dyno@127.0.0.1:${deadPort}/postgres` }
      }
    )
    const [runId] = readdirSync(out)
    runs.add(runId)
    const index = writtenIndex(join(out, runId))
    const statuses = Object.fromEntries(
      index.results.map((/** @type {{ scenario: string, status: string }} */ entry) => [entry.scenario, entry.status])
    )
    expect(statuses).toEqual({ json: 'ok', postgres: ci ? 'failed' : 'skipped' })
    const postgres = JSON.parse(readFileSync(join(out, runId, 'node-http--postgres.json'), 'utf8'))
    expect(postgres.errorCode).toBe('DYNO_ERR_SERVICE_UNAVAILABLE')
    expect(postgres.reason).toMatch(
      new RegExp(`cannot use PostgreSQL at postgres://dyno@127\\.0\\.0\\.1:${deadPort}/postgres \\(DATABASE_URL\\): .*ECONNREFUSED`)
    )
    expect(result.code).toBe(ci ? 1 : 0)
  }
}, 60_000)

afterAll(() => runs.expectNoneLeft(expect))

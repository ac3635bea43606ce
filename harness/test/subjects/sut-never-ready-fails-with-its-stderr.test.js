// @ts-check
import { afterAll, expect, it } from 'vitest'
import { fixtureSut } from '../support/fixture-suts.js'
import { trackRuns } from '../support/leftover-processes.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runInTempDir } from '../support/run-fixture.js'

const runs = trackRuns()

it('fails with DYNO_ERR_SUT_NOT_READY, its last stderr lines and what it printed on stdout, masked, when no ready line comes', async () => {
  const readyTimeoutSec = 1
  const { written: [record] } = await runInTempDir({ runs, suts: [fixtureSut('never-ready')], scenarios: ['json'], readyTimeoutSec })
  // It waited for the ready line as long as it was told to, and not much longer: the start stage as the harness timed it.
  expect(record.stagesMs.start).toBeGreaterThanOrEqual(readyTimeoutSec * 1000)
  expect(record.stagesMs.start).toBeLessThan(readyTimeoutSec * 1000 * 3)
  expect(schemaErrors('result', record)).toEqual([])
  expect(record).toMatchObject({ status: 'failed', errorCode: 'DYNO_ERR_SUT_NOT_READY', warmup: null, summary: null })
  expect(record.reason).toMatch(/printed no ready line within 1 s/)
  expect(record.reason).toContain('fixture never-ready: waiting for a database that never comes')
  // What it printed on stdout instead of a ready line, its password masked, a line cut short said so.
  expect(record.reason).toContain('on stdout: "fixture never-ready: connecting to postgres://dyno:***@127.0.0.1:5432/world", ' +
    '"{\\"event\\":\\"rea (no newline)"')
  expect(JSON.stringify(record)).not.toContain('hunter2')
  expect(record.sutProcess.stderrTail).toEqual([
    'fixture never-ready: booting',
    'fixture never-ready: waiting for a database that never comes'
  ])
}, 30_000)

afterAll(() => runs.expectNoneLeft(expect))

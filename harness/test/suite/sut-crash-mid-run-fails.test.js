// @ts-check
import { afterAll, expect, it } from 'vitest'
import { fixtureSut } from '../support/fixture-suts.js'
import { trackRuns } from '../support/leftover-processes.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runInTempDir } from '../support/run-fixture.js'

const runs = trackRuns()

it('fails the run with the exit code and stderr when the SUT dies under load, and stops the load early', async () => {
  const durationSec = 20
  const {
    written: [record]
  } = await runInTempDir({ runs, suts: [fixtureSut('crash-during-load')], scenarios: ['json'], load: { durationSec } })
  // The load stopped when the SUT died, well before the phase's end (the engine's own clock, not this machine's speed).
  expect(record.summary.durationSec).toBeLessThan(durationSec / 2)
  expect(schemaErrors('result', record)).toEqual([])
  expect(record).toMatchObject({ status: 'failed', errorCode: 'DYNO_ERR_SUT_EXITED' })
  expect(record.reason).toMatch(/the SUT exited during load \(exit code 3\)/)
  expect(record.reason).toContain('fixture crash-during-load: crashing after 500 requests')
  expect(record.verification.passed).toBe(true)
  expect(record.sutProcess.exit).toEqual({ code: 3, signal: null })
  expect(record.summary.stoppedEarly).toBe(true)
}, 30_000)

afterAll(() => runs.expectNoneLeft(expect))

// @ts-check
// A failure is confirmed before it counts: a step not held while the SUT used less than half a core is measured again, at most twice,
// and every attempt stays in the result with its figures and why it was not held. The answers-late fixture answers every request
// ANSWER_DELAY_MS after it arrives, its thread idle meanwhile: an objective tighter than that fails on every attempt, on any machine,
// with the SUT far under half a core. The lowest step is lengthened to the requests its percentile needs (40 for a p50).
import { afterAll, describe, expect, it } from 'vitest'
import { capacity } from '../../../src/measures/capacity/capacity.js'
import { CONFIRM_RETRIES } from '../../../src/measures/capacity/step-confirmation.js'
import { ANSWER_DELAY_MS } from '../../fixtures/suts/answers-late/answer-delay.js'
import { fixtureSut } from '../../support/fixture-suts.js'
import { trackRuns } from '../../support/leftover-processes.js'
import { runInTempDir } from '../../support/run-fixture.js'
import { schemaErrors } from '../../support/result-schemas.js'

const runs = trackRuns()
const OBJECTIVE = `p50<=${ANSWER_DELAY_MS / 4}ms`

describe('a step not held at a SUT using little of its cpu', () => {
  it('is measured again twice, each attempt recorded with its reason, and the search says the failure was confirmed', async () => {
    const { written } = await runInTempDir({
      runs,
      suts: [fixtureSut('answers-late')],
      scenarios: ['json'],
      measure: capacity,
      load: {
        engine: 'native',
        warmupSec: 0.2,
        durationSec: 0.5,
        capacity: { objective: OBJECTIVE, minRatePerSec: 100, maxRatePerSec: 200, stepSec: 0.2 }
      }
    })
    const [record] = written
    expect(schemaErrors('result', record)).toEqual([])
    expect(record.status, record.reason).toBe('ok')
    const figures = record.capacity
    expect(figures.capacityPerSec).toBe(0)
    expect(figures.steps).toHaveLength(1)
    const [step] = figures.steps
    expect(step).toMatchObject({ offeredPerSec: 100, held: false, requiredRequests: 40 })
    expect(step.attempts).toHaveLength(CONFIRM_RETRIES)
    for (const attempt of [...step.attempts, step]) {
      expect(attempt.held).toBe(false)
      expect(attempt.reason).toContain(`${OBJECTIVE} not held`)
      expect(attempt.measureAgain).toMatch(/the SUT used [\d.]+ % of a core, under 50 %/)
      expect(attempt.requiredRequests).toBe(40)
      expect(attempt.pauses).toHaveProperty('stealMaxMs')
    }
    for (const attempt of step.attempts) expect(attempt).not.toHaveProperty('attempts')
    expect(figures.limit).toMatch(new RegExp(`^at 100 req/s: not held on ${CONFIRM_RETRIES + 1} attempts; the last: `))
    expect(capacity.report.resultLine(record)).toContain('1 step, 1 measured again')
    expect(capacity.report.terminalTable?.(written)).toContain('(measured again: 1 step failed every attempt)')
  })

  afterAll(() => runs.expectNoneLeft(expect))
})

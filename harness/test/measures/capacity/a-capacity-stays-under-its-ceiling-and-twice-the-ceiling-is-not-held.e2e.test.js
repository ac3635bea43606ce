// @ts-check
// What a capacity means, checked on real processes against a bound no machine can move: the fixed-service-time fixture holds its only
// thread for SERVICE_MS of wall clock on every request, so it answers at most 1000 / SERVICE_MS requests a second, however fast or busy
// the machine (a busier one only lowers what it answers). The capacity found is above 0 and not above that ceiling, and a fresh launch
// offered twice the ceiling does not hold it, the SUT falling short of the rate offered. Neither verdict depends on the machine's
// speed: the test once offered a quarter above the capacity found and failed when the next launch, on a quieter second, held it.
// The objective is on the median, and wide (20 ms, twenty times the service time): a cpu shared with another process gives the SUT
// slices of a few ms, which a p50 of 5 ms did not always absorb at the search's first step; past the ceiling the queue grows by the
// excess every second, so the median goes far past any bound. It judges no difference, so it runs beside the other journeys.
import { afterAll, describe, expect, it } from 'vitest'
import { capacity } from '../../../src/measures/capacity/capacity.js'
import { HELD_ACHIEVED_SHARE } from '../../../src/measures/capacity/capacity-step.js'
import { formatInteger } from '../../../src/platform/text/format.js'
import { SERVICE_MS } from '../../fixtures/suts/fixed-service-time/service-time.js'
import { fixtureSut } from '../../support/fixture-suts.js'
import { trackRuns } from '../../support/leftover-processes.js'
import { runInTempDir } from '../../support/run-fixture.js'

const runs = trackRuns()
const OBJECTIVE = 'p50<=20ms'
/** The most the fixture can answer in a second: one request per SERVICE_MS of its only thread. */
const CEILING_PER_SEC = 1000 / SERVICE_MS
/**
 * A step is held at up to its allowance above what was answered (HELD_ACHIEVED_SHARE, and the requests still within the objective's
 * bound at its end: capacity-step.js), so a capacity may read this much above the ceiling at most.
 */
const HELD_ABOVE_ANSWERED = 1 / (HELD_ACHIEVED_SHARE - 0.02)

/** @param {{ minRatePerSec: number, maxRatePerSec: number | null }} rates */
const capacityRun = (rates) => runInTempDir({
  runs,
  suts: [fixtureSut('fixed-service-time')],
  scenarios: ['json'],
  connections: 50,
  measure: capacity,
  load: { engine: 'native', warmupSec: 0.5, durationSec: 1, capacity: { objective: OBJECTIVE, stepSec: 1, ...rates } }
})

describe('a capacity', () => {
  it(`is above 0 and not above the ${CEILING_PER_SEC} req/s a SUT holding its thread ${SERVICE_MS} ms a request can answer`, async () => {
    const { written: [record] } = await capacityRun({ minRatePerSec: 150, maxRatePerSec: null })
    expect(record.status, record.reason).toBe('ok')
    const search = record.capacity.steps.map((/** @type {any} */ each) => `${each.offeredPerSec}: ${each.reason ?? 'held'}`).join('\n')
    expect(record.capacity.capacityPerSec, search).toBeGreaterThan(0)
    expect(record.capacity.capacityPerSec, search).toBeLessThanOrEqual(CEILING_PER_SEC * HELD_ABOVE_ANSWERED)
  }, 120_000)

  it('offered twice that ceiling, is not held: the SUT answers no more than its ceiling', async () => {
    const offered = 2 * CEILING_PER_SEC
    const { written: [record] } = await capacityRun({ minRatePerSec: offered, maxRatePerSec: offered })
    const [step] = record.capacity.steps
    expect(step.offeredPerSec).toBe(offered)
    expect(step.held, JSON.stringify(step)).toBe(false)
    expect(step.achievedPerSec, JSON.stringify(step)).toBeLessThanOrEqual(CEILING_PER_SEC * HELD_ABOVE_ANSWERED)
    expect(step.reason).toContain(`below ${HELD_ACHIEVED_SHARE * 100} % of ${formatInteger(offered)}`)
  }, 120_000)

  afterAll(() => runs.expectNoneLeft(expect))
})

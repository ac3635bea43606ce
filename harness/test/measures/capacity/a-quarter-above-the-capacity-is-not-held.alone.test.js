// @ts-check
// What a capacity means, checked on real processes: a SUT whose every answer holds its thread for a fixed wall-clock time (the
// fixed-service-time fixture, 1 ms a request) gets a capacity above 0, and a fresh launch of it offered a quarter more than that capacity
// does not hold it: its p50 exceeds the objective or it drops requests (achieved below 99 % of offered, or failures), and not because the
// generator fell behind.
// The objective is on the median: past saturation the queue grows and every percentile with it, while below it a p99 of 10 ms on this
// virtual machine is decided by its jitter (steps at 30–78 % of the SUT's cpu came out at p99 4–10 ms), which puts the knee anywhere.
// The fixture waits on the clock rather than looping a fixed number of times: cpu-work's cost per request varied by 0.41–0.57 ms between
// launches here, so its capacity in one launch said little of the next one's (a fifth above one launch's capacity was held by the next).
// A wait on the clock leaves only node:http's own cost to vary: 14 fixed-rate steps in fresh launches saturated at 718–865 req/s. The
// quarter covers that spread and the search's resolution; a capacity found half as high as it should be is still caught.
// It judges measured figures: run it alone on a quiet machine (`flock -x /work/machine.lock`).
import { afterAll, describe, expect, it } from 'vitest'
import { capacity } from '../../../src/measures/capacity/capacity.js'
import { fixtureSut } from '../../support/fixture-suts.js'
import { trackRuns } from '../../support/leftover-processes.js'
import { runInTempDir } from '../../support/run-fixture.js'

const runs = trackRuns()
const OBJECTIVE = 'p50<=5ms'
/** The share of the capacity found that the fresh launch is offered. */
const ABOVE_SHARE = 1.25

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
  it('is found, and 25 % more is not held: p50 above the objective or requests dropped', async () => {
    const found = await capacityRun({ minRatePerSec: 150, maxRatePerSec: null })
    const [record] = found.written
    expect(record.status, record.reason).toBe('ok')
    const capacityPerSec = record.capacity.capacityPerSec
    expect(capacityPerSec, record.capacity.limit).toBeGreaterThan(0)
    const above = Math.round(capacityPerSec * ABOVE_SHARE)
    const again = await capacityRun({ minRatePerSec: above, maxRatePerSec: above })
    const [step] = again.written[0].capacity.steps
    expect(step.offeredPerSec).toBe(above)
    const search = found.written[0].capacity.steps.map((each) => `${each.offeredPerSec}: ${each.reason ?? 'held'}`).join('\n')
    expect(step.held, `${JSON.stringify(step)}\nthe search:\n${search}`).toBe(false)
    expect(step.generatorBehind, step.reason).toBe(false)
    const p50Over = step.latencyMs.p50 > 5
    const dropped = step.achievedPerSec < 0.99 * step.offeredPerSec || step.errors + step.timeouts + step.failed > 0
    expect(p50Over || dropped, JSON.stringify(step)).toBe(true)
  }, 120_000)

  afterAll(() => runs.expectNoneLeft(expect))
})

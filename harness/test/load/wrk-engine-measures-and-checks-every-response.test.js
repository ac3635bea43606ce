// @ts-check
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { decodeHistogram } from '../../src/load/latency-histogram.js'
import { startWrkLoad } from '../../src/load/engines/wrk/wrk-engine.js'
import { findWrk, wrkVersion } from '../../src/load/engines/wrk/wrk-phase.js'
import { TIMESERIES_NOTE } from '../../src/load/engines/wrk/wrk-summary.js'
import { PACKAGES_DIR } from '../../src/platform/paths.js'
import { loadSut } from '../../src/subjects/suts/discover-suts.js'
import { trackRuns } from '../support/leftover-processes.js'
import { missing, skipNote } from '../support/needs.js'
import { planFor, withSut } from '../support/engine-under-test.js'

const runs = trackRuns()
const absent = missing('wrk')

const nodeHttp = () => loadSut(join(PACKAGES_DIR, 'node-http'))

describe.skipIf(absent)(`the wrk engine${skipNote(absent)}`, () => {
  it('reports its version from wrk -v', () => {
    expect(wrkVersion(/** @type {string} */ (findWrk()))).toMatch(/^wrk \S*4\.\d/)
  })

  it('drives node-http for 1 s (POST with a body) and reports every response: statuses, bytes, a µs histogram of each', async () => {
    const { phases, reports } = await withSut(
      runs,
      nodeHttp(),
      (port, env) => startWrkLoad(planFor(port, 'post'), { env, threads: 1 }).done
    )
    const summary = /** @type {import('../../src/load/engines/wrk/wrk-summary.js').WrkPhaseSummary} */ (phases.measure)
    expect(summary.requests).toBeGreaterThan(200)
    expect(summary.statusCounts).toEqual({ 200: summary.requests })
    expect(summary).toMatchObject({
      errors: 0,
      timeouts: 0,
      non2xx: 0,
      mismatches: 0,
      unexpectedStatus: 0,
      stoppedEarly: false,
      timeseries: null
    })
    expect(summary.engineNotes).toContain(TIMESERIES_NOTE)
    expect(summary.durationSec).toBeGreaterThan(0.9)
    expect(summary.durationSec).toBeLessThan(2)
    // durationSec is rounded to 10 ms in the summary, so the rate agrees with requests / durationSec to within 1%.
    expect(Math.abs(summary.requestsPerSec.mean - summary.requests / summary.durationSec) / summary.requestsPerSec.mean).toBeLessThan(0.01)
    expect(summary.bytesPerSec).toBeGreaterThan(summary.requestsPerSec.mean * 1000) // the ~1 KB echo, each time
    // wrk's coordinated-omission correction is undone: one sample per response, as autocannon records.
    const histogram = decodeHistogram(summary.latencyHistogramUs)
    expect(histogram.totalCount).toBe(summary.requests)
    const latency = /** @type {NonNullable<typeof summary.latencyMs>} */ (summary.latencyMs)
    expect(latency.min).toBeGreaterThan(0)
    expect(latency.min).toBeLessThanOrEqual(latency.p50)
    expect(latency.p50).toBeLessThanOrEqual(latency.p99)
    expect(latency.p99).toBeLessThanOrEqual(latency.max)
    // wrk's own maximum is the same measurement; the histogram keeps 3 significant digits.
    const wrkOwn = /** @type {NonNullable<import('../../src/load/engines/wrk/wrk-summary.js').WrkReport['latencyUs']>} */ (
      reports.measure?.latencyUs
    )
    expect(latency.max).toBeCloseTo(wrkOwn.max / 1000, 0)
  }, 30_000)

  it('pipelines: wrk writes the requests of a batch at once and times the batch', async () => {
    const { phases } = await withSut(
      runs,
      nodeHttp(),
      (port, env) => startWrkLoad(planFor(port, 'plaintext', { pipelining: 4 }), { env, threads: 1 }).done
    )
    const summary = /** @type {import('../../src/load/engines/wrk/wrk-summary.js').WrkPhaseSummary} */ (phases.measure)
    expect(summary.statusCounts).toEqual({ 200: summary.requests })
    expect(summary.mismatches).toBe(0)
    const samples = decodeHistogram(summary.latencyHistogramUs).totalCount
    expect(samples).toBeGreaterThan(summary.requests / 4 - 10 * 4)
    expect(samples).toBeLessThanOrEqual(Math.ceil(summary.requests / 4))
    expect(summary.engineNotes.join(' ')).toContain('one sample per batch of 4')
  }, 30_000)

  it('refuses what wrk cannot do, naming it, before starting anything', async () => {
    const plan = planFor(1, 'plaintext', { phases: [{ name: 'measure', durationSec: 1.5 }] })
    await expect(startWrkLoad(plan, { threads: 1 }).done).rejects.toMatchObject({
      code: 'DYNO_ERR_INVALID_OPTION',
      message: expect.stringContaining('whole number of seconds')
    })
    await expect(startWrkLoad(planFor(1, 'plaintext', { connections: 10 }), { threads: 3 }).done).rejects.toMatchObject({
      code: 'DYNO_ERR_INVALID_OPTION',
      message: expect.stringContaining('divides them (10), got `3`')
    })
    await expect(startWrkLoad(planFor(1, 'plaintext', { ratePerSec: 500 }), { threads: 1 }).done).rejects.toMatchObject({
      code: 'DYNO_ERR_INVALID_OPTION',
      message: expect.stringContaining('cannot send at a fixed rate')
    })
    await expect(
      startWrkLoad(planFor(1, 'plaintext', { ratePerSec: null, phases: [{ name: 'measure', durationSec: 0.5 }] }), { threads: 1 }).done
    ).rejects.toMatchObject({
      message: expect.stringContaining('whole ' +
      'number of seconds')
    }) // a closed-loop plan gets as far as the duration check
  })

  afterAll(() => runs.expectNoneLeft(expect))
})

// @ts-check
import { expect, it } from 'vitest'
import { decodeHistogram } from '../../src/load/latency-histogram.js'
import { correctionIntervalUs, undoCorrection, wrkPhaseSummary } from '../../src/load/engines/wrk/wrk-summary.js'

/**
 * wrk 4's stats_correct (src/stats.c), on a dense array indexed by µs: for every recorded value
 * n ≥ 2e, adds its count at n − e, n − 2e, … while above e.
 * @param {[number, number][]} recorded @param {number} expected
 * @returns {[number, number][]} the non-empty buckets, ascending, as wrk's latency(i) gives them
 */
function wrkCorrect (recorded, expected) {
  const max = Math.max(...recorded.map(([value]) => value))
  const data = new Array(max + 1).fill(0)
  for (const [value, count] of recorded) data[value] += count
  for (let n = expected * 2; n <= max; n++) {
    const count = data[n]
    if (count === 0) continue
    for (let m = n - expected; m > expected; m -= expected) data[m] += count
  }
  return data.flatMap((count, value) => count > 0 ? [[value, count]] : [])
}

it('undoes wrk\'s coordinated-omission correction exactly, giving back one sample per response', () => {
  /** @type {[number, number][]} */
  const recorded = [[90, 40], [120, 300], [121, 7], [250, 12], [401, 3], [1800, 1], [5000, 2]]
  const intervalUs = 100
  const corrected = wrkCorrect(recorded, intervalUs)
  expect(corrected.reduce((sum, [, count]) => sum + count, 0)).toBeGreaterThan(365) // the correction added samples
  expect(undoCorrection(corrected, intervalUs)).toEqual(recorded)
  expect(undoCorrection(corrected, 0)).toEqual(corrected)
  expect(undoCorrection([[150, 1], [250, 5]], 100)).toBeNull() // not a corrected histogram
})

it('uses wrk\'s own interval: run time over the responses per connection, in whole numbers', () => {
  expect(correctionIntervalUs(/** @type {any} */ ({ requests: 10_050, durationUs: 1_000_123 }), 100)).toBe(Math.floor(1_000_123 / 100))
  expect(correctionIntervalUs(/** @type {any} */ ({ requests: 99, durationUs: 1_000_000 }), 100)).toBe(0)
})

it('checks the bodies Lua kept with the harness\'s own deep-equal, so JSON in another key order still matches', () => {
  const recorded = /** @type {[number, number][]} */ ([[800, 6], [950, 3]])
  /** @type {import('../../src/load/engines/wrk/wrk-summary.js').WrkReport} */
  const report = {
    dynoWrkReport: 1,
    threads: 1,
    durationUs: 3_000_000,
    requests: 9,
    bytes: 9000,
    errors: { connect: 0, read: 1, write: 0, status: 2, timeout: 0 },
    checked: true,
    statusCounts: { 200: 7, 503: 2 },
    perSecond: [[100, 1], [101, 3], [102, 5], [103, 0]],
    mismatches: 0,
    uncheckedBodies: [['{"b":1,"a":2}', 4], ['{"a":3,"b":1}', 1], ['', 2]],
    uncheckedOverflow: 0,
    latencyUs: null,
    latencyDistributionUs: wrkCorrect(recorded, correctionIntervalUs(/** @type {any} */ ({ requests: 9, durationUs: 3_000_000 }), 1)),
    doneCpuSec: 0
  }
  const summary = wrkPhaseSummary(report, {
    connections: 1,
    pipelining: 1,
    expectedStatus: 200,
    expectedBody: { json: { a: 2, b: 1 } },
    stoppedEarly: false
  })
  expect(summary).toMatchObject({
    requests: 9,
    durationSec: 3,
    requestsPerSec: { mean: 3, stdev: 1 }, // the whole seconds 101 and 102 (3 and 5); 100 and 103 are partial
    bytesPerSec: 3000,
    errors: 1,
    timeouts: 0,
    non2xx: 2,
    mismatches: 3,
    unexpectedStatus: 2,
    timeseries: null
  })
  expect(decodeHistogram(summary.latencyHistogramUs).totalCount).toBe(9)
  expect(summary.latencyMs).toMatchObject({ min: 0.8, max: 0.95 })
})

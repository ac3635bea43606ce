// @ts-check
// A request's cpu cost divided by how slow the speed probe found the SUT's cpus in the same phase, at the set's median probe reading;
// a set with one cost unprobed (or probed by too few chunks) is left as measured. Then the run's aggregates rank on what it gives.
import { expect, it } from 'vitest'
import { MIN_PROBE_CHUNKS, speedAdjustment } from '../../src/judging/speed-adjustment.js'
import { aggregateRuns } from '../../src/records/aggregate-runs.js'
import { createLatencyHistogram, encodeHistogram, recordLatencyMs } from '../../src/load/latency-histogram.js'

const histogram = createLatencyHistogram()
recordLatencyMs(histogram, 2)
const LATENCY = encodeHistogram(histogram)

/** @param {number} cpuUsPerRequest @param {number | null} cpuUsPerChunk @param {number} [chunks] */
const cost = (cpuUsPerRequest, cpuUsPerChunk, chunks = 20) =>
  ({ cpuUsPerRequest, speedProbe: cpuUsPerChunk === null ? null : { cpuUsPerChunk, chunks } })

it('gives each cost at the median probe reading, so that a cpu twice as slow in one phase costs the same', () => {
  const costs = [cost(20, 1000), cost(40, 2000), cost(30, 1500)]
  const adjustment = speedAdjustment(costs)
  expect(adjustment?.referenceCpuUsPerChunk).toBe(1500)
  expect(costs.map((one) => adjustment?.adjust(one))).toEqual([30, 30, 30])
})

it('leaves the set as measured when one cost was not probed, or by fewer chunks than a speed needs', () => {
  expect(speedAdjustment([cost(20, 1000), cost(40, null)])).toBeNull()
  expect(speedAdjustment([cost(20, 1000), cost(40, 2000, MIN_PROBE_CHUNKS - 1)])).toBeNull()
  expect(speedAdjustment([])).toBeNull()
  // A phase without a cost (no response) asks nothing of the probe.
  expect(speedAdjustment([cost(20, 1000), { cpuUsPerRequest: null, speedProbe: null }])?.referenceCpuUsPerChunk).toBe(1000)
})

/**
 * A run's ok record of one cell and round, as aggregateRuns reads it.
 * @param {string} sut @param {number} round @param {number} requestsPerSec @param {{ cpuUsPerRequest: number, speedProbe: object | null }}
 *   costed
 */
function record (sut, round, requestsPerSec, costed) {
  return /** @type {import('../../src/records/result-record.js').ResultRecord} */ (/** @type {unknown} */ ({
    status: 'ok',
    sut: { label: sut },
    scenario: { name: 'json' },
    load: { connections: 100 },
    repeat: { index: round, of: 4 },
    summary: {
      requestsPerSec: { mean: requestsPerSec },
      latencyHistogramUs: LATENCY,
      cpuCost: { ...costed, cpuSource: 'proc', sutCpuSharePct: 99, cpuBound: true }
    }
  }))
}

it('ranks a run on its costs at one speed: two SUTs whose costs swap with the cpu speed are told apart by what they cost at it', () => {
  // a costs 20 µs at the reference speed and b 30; in rounds 1 and 3 the cpu ran twice as slow (both doubled, the probe too), in rounds
  // 2 and 4 at the reference speed; measured alone their rounds overlap.
  const speeds = [2000, 1000, 2000, 1000]
  const records = speeds.flatMap((chunkUs, round) => [
    record('a', round + 1, 1e6 / (20 * chunkUs / 1000), cost(20 * chunkUs / 1000 * (1 + 0.01 * round), chunkUs)),
    record('b', round + 1, 1e6 / (30 * chunkUs / 1000), cost(30 * chunkUs / 1000 * (1 - 0.01 * round), chunkUs))
  ])
  const aggregates = aggregateRuns(records, { seed: 1, rankBy: 'cost' })
  const [a, b] = ['a', 'b'].map((sut) => aggregates.find((entry) => entry.sut === sut))
  expect(a?.cpuCost?.speedAdjusted?.referenceCpuUsPerChunk).toBe(1500)
  expect(a?.cpuCost?.speedAdjusted?.measuredRuns).toEqual([40, 20.2, 40.8, 20.6])
  expect(a?.cpuCost?.cpuUsPerRequestRuns.map((us) => Math.round(us * 10) / 10)).toEqual([30, 30.3, 30.6, 30.9])
  expect(a?.rankedBy).toBe('cost')
  expect(a?.rank).toEqual({ best: 1, worst: 1, of: 2 })
  expect(b?.rank).toEqual({ best: 2, worst: 2, of: 2 })
  // Unprobed, the same run's costs stay as measured.
  const unprobed = aggregateRuns(speeds.flatMap((chunkUs, round) => [
    record('a', round + 1, 1, cost(20 * chunkUs / 1000 * (1 + 0.01 * round), null)),
    record('b', round + 1, 1, cost(30 * chunkUs / 1000 * (1 - 0.01 * round), null))
  ]), { seed: 1, rankBy: 'cost' })
  const measuredA = unprobed.find((entry) => entry.sut === 'a')
  expect(measuredA?.cpuCost?.speedAdjusted).toBeNull()
  expect(measuredA?.cpuCost?.cpuUsPerRequestRuns).toEqual([40, 20.2, 40.8, 20.6])
})

// @ts-check
// One PhaseSummary from what any engine counted: the rates, the spread of the per-second counts, the
// statuses judged against the scenario's, the latency summary and encoding, all computed one way.
import { encodeHistogram, latencySummaryMs } from './latency-histogram.js'
import { roundTo } from '../platform/util/numbers.js'

/**
 * @typedef {object} PhaseCounts what an engine counted in one phase
 * @property {number} requests completed responses
 * @property {number} durationSec measured by the engine
 * @property {number[]} perSecond completed responses in each whole second of the phase
 * @property {import('hdr-histogram-js').Histogram} histogram µs, one sample per response
 * @property {number} bytes received
 * @property {number} errors failed requests, timeouts included
 * @property {number} timeouts
 * @property {Record<string, number>} statusCounts responses per status
 * @property {number} mismatches responses whose body did not match the scenario
 * @property {boolean} stoppedEarly
 * @property {import('./timeseries.js').Window[] | null} timeseries
 */

/**
 * @param {PhaseCounts} counts
 * @param {number} expectedStatus the scenario's status: every other one counts as unexpected
 * @returns {import('./load-plan.js').PhaseSummary}
 */
export function phaseSummary (counts, expectedStatus) {
  const { requests, durationSec, statusCounts } = counts
  return {
    requests,
    durationSec: roundTo(durationSec, 3),
    requestsPerSec: {
      mean: durationSec > 0 ? roundTo(requests / durationSec, 1) : 0,
      stdev: roundTo(populationStdev(counts.perSecond), 1)
    },
    latencyMs: latencySummaryMs(counts.histogram),
    latencyHistogramUs: encodeHistogram(counts.histogram),
    bytesPerSec: durationSec > 0 ? Math.round(counts.bytes / durationSec) : 0,
    errors: counts.errors,
    timeouts: counts.timeouts,
    non2xx: Object.entries(statusCounts).reduce(
      (sum, [status, count]) => (Number(status) >= 200 && Number(status) < 300 ? sum : sum + count),
      0
    ),
    mismatches: counts.mismatches,
    unexpectedStatus: requests - (statusCounts[String(expectedStatus)] ?? 0),
    statusCounts,
    stoppedEarly: counts.stoppedEarly,
    timeseries: counts.timeseries
  }
}

/** @param {number[]} values @returns {number} 0 for fewer than two */
function populationStdev (values) {
  if (values.length < 2) return 0
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length
  return Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length)
}

// @ts-check
// Turns the JSON line that wrk-report.lua prints into dyno's PhaseSummary, the same record the
// autocannon worker produces, so that results keep one schema whatever the engine.
import { bodyMatches } from '../../../subjects/verify/check-response.js'
import { createLatencyHistogram } from '../../latency-histogram.js'
import { phaseSummary } from '../../phase-summary.js'

/**
 * @typedef {object} WrkReport the line wrk-report.lua prints in done()
 * @property {1} dynoWrkReport
 * @property {number} threads
 * @property {number} durationUs wrk's run time, from the threads' start to after they joined
 * @property {number} requests completed responses
 * @property {number} bytes received
 * @property {{ connect: number, read: number, write: number, status: number, timeout: number }} errors
 *   wrk's counters; `status` counts statuses above 399, `timeout` responses slower than `--timeout`
 * @property {boolean} checked whether response() ran (false: calibration without checks)
 * @property {Record<string, number>} statusCounts
 * @property {[number, number][]} perSecond [wall-clock second, responses completed in it]
 * @property {number} mismatches exact-text mode: bodies other than the expected text
 * @property {[string, number][]} uncheckedBodies recheck mode: [distinct body, responses] left for the engine to check
 * @property {number} uncheckedOverflow recheck mode: responses whose body was not kept (too many distinct bodies)
 * @property {{ min: number, max: number, mean: number, stdev: number, p50: number, p75: number, p90: number,
 *   p99: number, p99_9: number, p99_99: number } | null} latencyUs wrk's own figures, after its coordinated-omission correction
 * @property {[number, number][]} latencyDistributionUs wrk's µs histogram (corrected), [value, count] per non-empty bucket
 * @property {number} doneCpuSec what done() took, mostly reading the distribution
 *
 * @typedef {import('../../load-plan.js').PhaseSummary & { timeseries: null, engineNotes: string[] }} WrkPhaseSummary
 */

export const TIMESERIES_NOTE = 'timeseries: null because wrk reports once, when the phase ends: its Lua API gives no ' +
  'latency per response and no clock per request, so the phase cannot be cut into windows'

/**
 * The interval wrk 4 uses for its coordinated-omission correction (wrk.c, before done()):
 * runtime_us / (complete / connections), in integer arithmetic; 0 when it corrected nothing.
 * @param {WrkReport} report @param {number} connections
 */
export function correctionIntervalUs (report, connections) {
  const perConnection = Math.floor(report.requests / connections)
  return perConnection > 0 ? Math.floor(report.durationUs / perConnection) : 0
}

/**
 * Undoes wrk's coordinated-omission correction. wrk's stats_correct(e) adds, for every recorded value
 * n ≥ 2e, synthetic samples at n − e, n − 2e, … while above e. So for m > e the corrected count is
 * F[m] = Σ_k≥0 O[m + k·e] and the recorded count is O[m] = F[m] − F[m + e]; values up to e are untouched.
 * This gives back the latencies wrk measured, one per response (per batch when pipelining), like autocannon's.
 * @param {[number, number][]} corrected [µs, count] pairs
 * @param {number} intervalUs from correctionIntervalUs; 0: nothing to undo
 * @returns {[number, number][] | null} recorded [µs, count] pairs, or null when the input is not a corrected histogram
 */
export function undoCorrection (corrected, intervalUs) {
  if (intervalUs <= 0) return corrected
  const counts = new Map(corrected)
  /** @type {[number, number][]} */
  const recorded = []
  for (const [valueUs, count] of corrected) {
    const original = valueUs > intervalUs ? count - (counts.get(valueUs + intervalUs) ?? 0) : count
    if (original < 0) return null
    if (original > 0) recorded.push([valueUs, original])
  }
  return recorded
}

/**
 * @param {[number, number][]} perSecond [wall-clock second, responses] @returns {number[]} the whole seconds (the first and last are
 *   partial)
 */
function wholeSeconds (perSecond) {
  return [...perSecond].sort((a, b) => a[0] - b[0]).slice(1, -1).map(([, count]) => count)
}

/**
 * Responses whose body does not meet the expectation: the exact-text count from Lua, plus the kept
 * bodies that fail the real check, plus the bodies Lua could not keep (unknown counts as wrong).
 * @param {WrkReport} report @param {import('@dyno/scenarios').BodyExpectation | null} expected
 */
function countMismatches (report, expected) {
  let mismatches = report.mismatches + report.uncheckedOverflow
  if (expected) {
    for (const [body, count] of report.uncheckedBodies) if (!bodyMatches(expected, body)) mismatches += count
  }
  return mismatches
}

/**
 * @param {WrkReport} report
 * @param {{ connections: number, pipelining: number, expectedStatus: number,
 *   expectedBody: import('@dyno/scenarios').BodyExpectation | null, stoppedEarly: boolean }} context
 * @returns {WrkPhaseSummary}
 */
export function wrkPhaseSummary (report, { connections, pipelining, expectedStatus, expectedBody, stoppedEarly }) {
  const engineNotes = [TIMESERIES_NOTE]
  const recorded = undoCorrection(report.latencyDistributionUs, correctionIntervalUs(report, connections))
  if (!recorded) {
    engineNotes.push("latency: wrk's coordinated-omission correction could not be undone; the histogram is wrk's " +
    'corrected one')
  }
  if (pipelining > 1) {
    engineNotes.push(
      `latency: one sample per batch of ${pipelining} pipelined requests (wrk times a batch from its first write to its last response)`
    )
  }
  if (report.uncheckedOverflow > 0) {
    engineNotes.push(
      `mismatches: ${report.uncheckedOverflow} responses had more distinct bodies than the script keeps and count as mismatches`
    )
  }
  if (!report.checked) engineNotes.push('responses were not checked (calibration): statusCounts is empty and mismatches is 0')

  const histogram = createLatencyHistogram()
  const highestUs = histogram.highestTrackableValue
  for (const [valueUs, count] of recorded ?? report.latencyDistributionUs) {
    histogram.recordValueWithCount(Math.min(Math.max(valueUs, 1), highestUs), count)
  }
  const summary = phaseSummary({
    requests: report.requests,
    durationSec: report.durationUs / 1e6,
    perSecond: wholeSeconds(report.perSecond),
    histogram,
    bytes: report.bytes,
    errors: report.errors.connect + report.errors.read + report.errors.write + report.errors.timeout,
    timeouts: report.errors.timeout,
    statusCounts: report.statusCounts,
    mismatches: report.checked ? countMismatches(report, expectedBody) : 0,
    stoppedEarly,
    timeseries: null
  }, expectedStatus)
  // Without the Lua checks (calibration) no status was counted: wrk's own count of statuses above 399 stands in.
  return report.checked
    ? { ...summary, timeseries: null, engineNotes }
    : { ...summary, non2xx: report.errors.status, unexpectedStatus: 0, timeseries: null, engineNotes }
}

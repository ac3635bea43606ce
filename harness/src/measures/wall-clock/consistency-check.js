// @ts-check
// Whether a wall-clock result agrees with itself. In a closed loop every connection keeps `pipelining` requests in flight, so
// by Little's law the mean number of requests in flight is connections × pipelining. Where the engine reports, per window, the
// time its requests spent in flight inside it (each request's time clipped to the window, completed or not: native,
// autocannon), that mean is measured exactly: the time in flight over the windows' duration. A result far below it had
// connections not carrying requests (stuck connecting in a full listen backlog, refused, or closed); one far above it counted
// time no request was in flight. An engine that does not report it (wrk) is held to the mean latency of the completed requests,
// which leaves out the time of the requests still in flight at the phase's end: those can make up any shortfall, so only a mean
// above the law is flagged (docs/measuring.md, "Does a result agree with itself?"). Percentiles must be ordered, and errors must
// stay a small share. Over HTTP/2 a connection keeps `streams` requests in flight instead of `pipelining`, and over a WebSocket
// `streams` messages. And the SUT's memory must not keep growing under the load (steady-memory-check.js).
import { exchangeOf, inFlightPerConnection } from '../../records/result-protocol.js'
import { steadyMemoryCheck } from './steady-memory-check.js'

/**
 * How far the mean number in flight may sit from connections × pipelining, as a share of it: a closed-loop client spends a little
 * time between a response and the next request, in which that connection carries none, and connecting. A default fibonacci
 * run of four Node SUTs by autocannon on 2026-11-27 (8 cells, a busy machine) sat at 0.973 to 0.992 of it, where the completed
 * requests' mean had sat at 0.087 to 0.646 of Little's law.
 */
export const LITTLES_LAW_TOLERANCE = 0.05

/** The share of requests that may end in an error or a timeout. */
export const ERROR_SHARE_LIMIT = 0.01

/**
 * @typedef {{ count: number, setBy: string, connections: number, rate: string, what: string }} Exchange what each connection keeps
 *   in flight (`count` of them, set by `setBy`: pipelining or streams), and what is exchanged (`what`: requests or messages; `rate`:
 *   req/s or msg/s)
 * @typedef {import('../../records/result-record.js').ConsistencyCheck} ConsistencyCheck
 * @typedef {import('../../records/result-record.js').Consistency} Consistency
 */

/**
 * @param {import('../../records/result-record.js').ResultRecord} record
 * @returns {Consistency | null} null for a result without a measured phase (a run that never loaded)
 */
export function checkConsistency (record) {
  const summary = record.summary
  if (!summary || !summary.latencyMs || summary.requests === 0) return null
  const { latencyMs, requestsPerSec } = summary
  /** @type {ConsistencyCheck[]} */
  const checks = []
  const perConnection = inFlightPerConnection(record)
  const inFlight = record.load.connections * perConnection.count
  /** @type {Exchange} */
  const exchange = {
    ...perConnection,
    connections: record.load.connections,
    rate: `${exchangeOf(record)}/s`,
    what: exchangeOf(record) === 'msg' ? 'messages' : 'requests'
  }
  if (record.load.ratePerSec === null && requestsPerSec.mean > 0) {
    const measured = meanInFlight(summary.timeseries)
    checks.push(...(measured === null
      ? completedRequestChecks(record, inFlight, exchange)
      : timeInFlightChecks(measured, inFlight, exchange)))
  }
  const ordered = latencyMs.p50 <= latencyMs.p99 && latencyMs.p99 <= latencyMs.max && latencyMs.mean <= latencyMs.max
  checks.push({
    name: 'percentile-order',
    passed: ordered,
    detail: `p50 ${round(latencyMs.p50)} ≤ p99 ${round(latencyMs.p99)} ≤ max ${round(latencyMs.max)} ms, mean ` +
      `${round(latencyMs.mean)} ≤ max`
  })
  const failures = (summary.errors ?? 0) + (summary.timeouts ?? 0)
  const share = failures / (summary.requests + failures)
  checks.push({
    name: 'errors',
    passed: share <= ERROR_SHARE_LIMIT,
    detail: `${failures} errors and timeouts against ${summary.requests} responses: ${round(share * 100)}% (allowed ` +
      `${ERROR_SHARE_LIMIT * 100}%)`
  })
  const memory = steadyMemoryCheck(summary)
  if (memory) checks.push(memory)
  const failed = checks.filter((check) => !check.passed).map((check) => check.name)
  return { passed: failed.length === 0, failed, checks }
}

/**
 * The mean number of requests in flight over the phase: the windows' time in flight over their duration; null when the engine
 * does not report the time in flight of every window.
 * @param {import('../../load/timeseries.js').Window[] | null | undefined} windows
 * @returns {{ requests: number, inFlightMs: number, durationMs: number } | null}
 */
function meanInFlight (windows) {
  if (!windows?.length || !windows.every((window) => typeof window.inFlightMs === 'number')) return null
  const inFlightMs = windows.reduce((sum, window) => sum + /** @type {number} */ (window.inFlightMs), 0)
  const durationMs = windows.reduce((sum, window) => sum + window.durationMs, 0)
  return durationMs > 0 ? { requests: inFlightMs / durationMs, inFlightMs, durationMs } : null
}

/**
 * Little's law, exactly: the mean number in flight measured from the time in flight, against connections × pipelining.
 * @param {{ requests: number, inFlightMs: number, durationMs: number }} measured
 * @param {number} inFlight connections × pipelining (or streams)
 * @param {Exchange} exchange
 * @returns {ConsistencyCheck[]}
 */
function timeInFlightChecks (measured, inFlight, exchange) {
  const ratio = measured.requests / inFlight
  const carrying = measured.requests >= inFlight * (1 - LITTLES_LAW_TOLERANCE)
  return [{
    name: 'littles-law',
    passed: Math.abs(ratio - 1) <= LITTLES_LAW_TOLERANCE,
    detail: `${round(measured.inFlightMs)} ms of time in flight in ${round(measured.durationMs)} ms of windows: ` +
      `${round(measured.requests)} ${exchange.what} in flight on average against ${inFlight} = connections × ${exchange.setBy}: ` +
      `${round(ratio)} of it ` +
      `(allowed ${1 - LITTLES_LAW_TOLERANCE} to ${1 + LITTLES_LAW_TOLERANCE})`
  }, {
    name: 'connections-in-flight',
    passed: carrying,
    detail: `${round(measured.requests)} ${exchange.what} were in flight on average (time in flight ÷ duration) of the ${inFlight} ` +
      `that ${exchange.connections} connections × ${exchange.count} ${exchange.setBy} keep` +
      (carrying ? '' : `: the others were not carrying ${exchange.what} (stuck connecting in a full listen backlog, refused, or closed)`)
  }]
}

/**
 * Little's law from the completed requests alone (an engine that does not report the time in flight): req/s × their mean latency
 * leaves out the time of the requests still in flight at the phase's end, up to connections × pipelining of them, each for up to
 * the whole phase: those can make up any shortfall, so a mean below the law cannot tell idle connections from a heavy tail and
 * is not flagged (nor is the requests in flight judged). A mean above the law counted time no request was in flight: flagged.
 * @param {import('../../records/result-record.js').ResultRecord} record
 * @param {number} inFlight connections × pipelining (or streams)
 * @param {Exchange} exchange
 * @returns {ConsistencyCheck[]}
 */
function completedRequestChecks (record, inFlight, exchange) {
  const { requestsPerSec } = /** @type {NonNullable<typeof record.summary>} */ (record.summary)
  const latencyMs = /** @type {NonNullable<NonNullable<typeof record.summary>['latencyMs']>} */ (record.summary?.latencyMs)
  const expectedMs = inFlight / requestsPerSec.mean * 1000
  const ratio = latencyMs.mean / expectedMs
  return [{
    name: 'littles-law',
    passed: ratio <= 1 + LITTLES_LAW_TOLERANCE,
    detail: `mean latency ${round(latencyMs.mean)} ms against ${round(expectedMs)} ms from (connections × ${exchange.setBy}) / ` +
      `${exchange.rate} = ` +
      `${inFlight} / ${round(requestsPerSec.mean)}: ${round(ratio)} of it (allowed up to ${1 + LITTLES_LAW_TOLERANCE}; below it not ` +
      'judged: the engine does not time the requests still in flight at the end, which a heavy tail and idle connections both leave)'
  }]
}

/** @param {number} value */
const round = (value) => Math.round(value * 1000) / 1000

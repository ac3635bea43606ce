// @ts-check
// Whether a wall-clock result agrees with itself. In a closed loop every connection keeps `pipelining` requests in flight, so by
// Little's law the mean latency is (connections × pipelining) / throughput: a result whose mean is far below that had fewer
// requests in flight than the table says (connections stuck in a listen backlog, refused, or stalled), and one far above it
// counted time no request was in flight. Percentiles must be ordered, and errors must stay a small share of the requests. Over HTTP/2 a
// connection keeps `streams` requests in flight instead, and a WebSocket `streams` messages.
import { exchangeOf, inFlightPerConnection } from '../../records/result-protocol.js'

/**
 * How far the measured mean latency may sit from Little's law's, as a share of it. The default `pnpm bench` of 2026-11-26 here:
 * 188 of its 191 results sat at 0.981 to 0.998 of it (median 0.995: a closed-loop client spends a little time between a response
 * and the next request, which no latency counts); the three below were python-fastapi and python-flask × fibonacci (0.341 and
 * 0.926), whose connections were not all carrying requests.
 */
export const LITTLES_LAW_TOLERANCE = 0.05

/** The share of requests that may end in an error or a timeout. */
export const ERROR_SHARE_LIMIT = 0.01

/**
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
  const exchange = exchangeOf(record) === 'msg' ? 'messages' : 'requests'
  if (record.load.ratePerSec === null && requestsPerSec.mean > 0) {
    const expectedMs = inFlight / requestsPerSec.mean * 1000
    const ratio = latencyMs.mean / expectedMs
    checks.push({
      name: 'littles-law',
      passed: Math.abs(ratio - 1) <= LITTLES_LAW_TOLERANCE,
      detail: `mean latency ${round(latencyMs.mean)} ms against ${round(expectedMs)} ms ` +
        `from (connections × ${perConnection.setBy}) / ${exchangeOf(record)}/s = ` +
        `${inFlight} / ${round(requestsPerSec.mean)}: ${round(ratio)} of it (allowed ${1 - LITTLES_LAW_TOLERANCE} to ${1 + LITTLES_LAW_TOLERANCE})`
    })
    const carrying = requestsPerSec.mean * latencyMs.mean / 1000
    checks.push({
      name: 'connections-in-flight',
      passed: carrying >= inFlight * (1 - LITTLES_LAW_TOLERANCE),
      detail: `${round(carrying)} ${exchange} were in flight on average (${exchangeOf(record)}/s × mean latency) of the ${inFlight} that ` +
        `${record.load.connections} connections × ${perConnection.count} ${perConnection.setBy} keep` +
        `${carrying < inFlight * (1 - LITTLES_LAW_TOLERANCE)
          ? `: the others were not carrying ${exchange} (held in a listen backlog, refused, or stalled)`
          : ''}`
    })
  }
  const ordered = latencyMs.p50 <= latencyMs.p99 && latencyMs.p99 <= latencyMs.max && latencyMs.mean <= latencyMs.max
  checks.push({
    name: 'percentile-order',
    passed: ordered,
    detail: `p50 ${round(latencyMs.p50)} ≤ p99 ${round(latencyMs.p99)} ≤ max ${round(latencyMs.max)} ms, mean ${round(latencyMs.mean)} ≤ max`
  })
  const failures = (summary.errors ?? 0) + (summary.timeouts ?? 0)
  const share = failures / (summary.requests + failures)
  checks.push({
    name: 'errors',
    passed: share <= ERROR_SHARE_LIMIT,
    detail: `${failures} errors and timeouts against ${summary.requests} responses: ${round(share * 100)}% (allowed ${ERROR_SHARE_LIMIT * 100}%)`
  })
  const failed = checks.filter((check) => !check.passed).map((check) => check.name)
  return { passed: failed.length === 0, failed, checks }
}

/** @param {number} value */
const round = (value) => Math.round(value * 1000) / 1000

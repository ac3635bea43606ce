// @ts-check
// What the native engine reports, read: its JSON lines as they come, each phase's report made the PhaseSummary every engine gives
// (through phaseSummary), with what the connections negotiated, how long they took to come up, the invalid responses and the failures
// it named, and the form the counts of several hosts are merged from (merge-host-reports.js).
import { DynoError } from '../../../platform/errors.js'
import { roundTo } from '../../../platform/util/numbers.js'
import { decodeHistogram } from '../../latency-histogram.js'
import { phaseSummary } from '../../phase-summary.js'
import { planProtocol } from './native-protocols.js'

/** The most distinct failure reasons a summary keeps (the engine names a dozen kinds), and the longest. */
const MAX_FAILURE_REASONS = 32
const MAX_REASON_CHARS = 200

/**
 * @typedef {object} NativeWindow a window as the engine reports it
 * @property {number} startMs @property {number} durationMs @property {number} requests @property {number} errors
 * @property {number} inFlightUs the time requests spent in flight inside the window, summed over them, completed or not
 * @property {[number, number, number, number] | null} latencyUs p50, p75, p90, p99
 * @property {string} [histogramUs] asked for with windowHistograms: the window's µs histogram
 *
 * @typedef {object} NativePhaseReport
 * @property {'warmup' | 'measure'} name
 * @property {number} durationMs @property {number} requests @property {number} bytes @property {number} errors
 * @property {number} timeouts @property {number} mismatches @property {Record<string, number>} statusCounts
 * @property {number[]} perSecond @property {string} latencyHistogramUs @property {NativeWindow[]} windows
 * @property {boolean} stoppedEarly
 * @property {import('../../phase-counts.js').RateFigures | null} rate
 * @property {string | null} [protocolNegotiated] what the connections spoke (`http/1.1 over TLSv1.3`, `h2 over TLSv1.3`, …); null when
 *   none was established
 * @property {number} [connectMs] how long the phase's connections took to come up (connected, TLS and protocol handshakes done) before
 *   the engine started the phase's clock, at most timeoutMs
 * @property {number} [connectionsUp] how many of them were up when the clock started (fewer than the plan's: the wait was cut short)
 * @property {number} [invalidResponses] responses refused as invalid (not HTTP, a length that cannot be, a head or body over its bound)
 * @property {Record<string, number>} [failureReasons] each named failure and how often: the invalid responses by reason, the handshakes
 *   that ran out of time
 *
 * @typedef {import('../../load-plan.js').PhaseSummary & { protocolNegotiated?: string }} NativePhaseSummary
 */

/**
 * What a phase summary takes from the engine's report as it is, whatever form it is merged or summed in.
 * @param {NativePhaseReport} report
 */
function reportedCounts (report) {
  return {
    requests: report.requests,
    durationSec: report.durationMs / 1000,
    perSecond: report.perSecond,
    bytes: report.bytes,
    errors: report.errors + report.timeouts,
    timeouts: report.timeouts,
    statusCounts: report.statusCounts,
    mismatches: report.mismatches,
    stoppedEarly: report.stoppedEarly
  }
}

/**
 * @param {NativePhaseReport} report @param {import('./native-protocols.js').NativePlan} plan
 * @returns {NativePhaseSummary}
 */
export function nativePhaseSummary (report, plan) {
  const summary = phaseSummary(
    {
      ...reportedCounts(report),
      histogram: decodeHistogram(report.latencyHistogramUs),
      timeseries: report.windows.map((window) => ({
        startMs: window.startMs,
        durationMs: window.durationMs,
        requests: window.requests,
        requestsPerSec: window.durationMs > 0 ? roundTo((window.requests / window.durationMs) * 1000, 1) : 0,
        latencyMs: window.latencyUs
          ? {
              p50: window.latencyUs[0] / 1000,
              p75: window.latencyUs[1] / 1000,
              p90: window.latencyUs[2] / 1000,
              p99: window.latencyUs[3] / 1000
            }
          : null,
        errors: window.errors,
        ...(typeof window.inFlightUs === 'number' ? { inFlightMs: roundTo(window.inFlightUs / 1000, 3) } : {})
      }))
    },
    plan.expectedStatus
  )
  const withRate = report.rate ? { ...summary, rate: report.rate } : summary
  return withFailures(withConnects(withProtocol(withRate, [report], plan), [report]), [report])
}

/**
 * A phase summary with the invalid responses and the named failures of the engines' reports, added up; as it was when an engine did not
 * say (one from before they were counted).
 * @template {import('../../load-plan.js').PhaseSummary} S
 * @param {S} summary @param {NativePhaseReport[]} reports the phase as each engine reported it
 * @returns {S}
 */
export function withFailures (summary, reports) {
  if (reports.length === 0 || !reports.every((report) => Number.isInteger(report.invalidResponses))) return summary
  /** @type {Map<string, number>} */
  const reasons = new Map()
  for (const report of reports) {
    for (const [reason, count] of Object.entries(report.failureReasons ?? {})) {
      if (!Number.isInteger(count) || count <= 0) continue
      const key = reason.slice(0, MAX_REASON_CHARS)
      if (reasons.has(key) || reasons.size < MAX_FAILURE_REASONS) reasons.set(key, (reasons.get(key) ?? 0) + count)
    }
  }
  return {
    ...summary,
    invalidResponses: reports.reduce((sum, report) => sum + /** @type {number} */ (report.invalidResponses), 0),
    failureReasons: Object.fromEntries([...reasons].sort(([a], [b]) => a.localeCompare(b)))
  }
}

/**
 * A phase summary with how long the engines' connections took to come up before the phase's clock started (the longest of several
 * engines', which each wait for their own) and how many were up then (added up); as it was when an engine did not say.
 * @template {import('../../load-plan.js').PhaseSummary} S
 * @param {S} summary @param {NativePhaseReport[]} reports the phase as each engine reported it
 * @returns {S}
 */
export function withConnects (summary, reports) {
  const said = reports.every((report) => Number.isFinite(report.connectMs) && Number.isInteger(report.connectionsUp))
  if (!said || reports.length === 0) return summary
  return {
    ...summary,
    connectMs: Math.max(...reports.map((report) => /** @type {number} */ (report.connectMs))),
    connectionsUp: reports.reduce((sum, report) => sum + /** @type {number} */ (report.connectionsUp), 0)
  }
}

/**
 * A phase summary with what the engines' connections negotiated, and, for a protocol whose messages are counted under the
 * handshake's status (ws: 101), no non-2xx answer made of them.
 * @param {import('../../load-plan.js').PhaseSummary} summary @param {NativePhaseReport[]} reports the phase as each engine reported it
 * @param {import('./native-protocols.js').NativePlan} plan
 * @returns {NativePhaseSummary}
 */
export function withProtocol (summary, reports, plan) {
  const { protocol } = planProtocol(plan)
  const negotiated = [
    ...new Set(reports.flatMap((report) => (report.protocolNegotiated ? report.protocolNegotiated.split(', ') : [])))
  ].sort()
  const non2xx =
    protocol.messagesUnder === null ? summary.non2xx : summary.non2xx - (summary.statusCounts[String(protocol.messagesUnder)] ?? 0)
  return { ...summary, non2xx, ...(negotiated.length > 0 ? { protocolNegotiated: negotiated.join(', ') } : {}) }
}

/**
 * A phase as one engine counted it, in the form the counts of several generators are merged from (phase-counts.js).
 * @param {NativePhaseReport} report
 * @returns {import('../../phase-counts.js').PortableCounts}
 */
export function nativePortableCounts (report) {
  return {
    ...reportedCounts(report),
    histogramUs: report.latencyHistogramUs,
    windows: report.windows.every((window) => window.requests === 0 || window.histogramUs)
      ? report.windows.map((window) => ({
        startMs: window.startMs,
        durationMs: window.durationMs,
        requests: window.requests,
        errors: window.errors,
        histogramUs: window.histogramUs ?? null,
        ...(typeof window.inFlightUs === 'number' ? { inFlightUs: window.inFlightUs } : {})
      }))
      : null,
    ...(report.rate ? { rate: report.rate } : {})
  }
}

/**
 * The error of a phase the engine could not go on with (a certificate not trusted, HTTP/2 not negotiated, a WebSocket handshake
 * refused), naming why.
 * @param {{ phase?: unknown, message?: unknown }} message the engine's `failed` line
 * @param {string} [where] the host it ran on, for load from several hosts
 */
export function failedPhase (message, where = '') {
  return new DynoError(
    'DYNO_ERR_LOAD_GENERATOR',
    `the native engine${where ? ` on ${where}` : ''} could not go on with the ${String(message.phase)} phase: ` +
      `${String(message.message).slice(0, 1000)}`
  )
}

/**
 * The engine's JSON lines as they come; a line that is not JSON goes to `onNotJson`, and nothing after it is read.
 * @param {import('node:stream').Readable} stdout
 * @param {(message: any) => void} onMessage
 * @param {(line: string) => void} onNotJson
 */
export function readEngineMessages (stdout, onMessage, onNotJson) {
  let pending = ''
  let broken = false
  stdout.on('data', (chunk) => {
    const lines = (pending + chunk.toString()).split('\n')
    pending = lines.pop() ?? ''
    for (const line of lines) {
      if (broken) return
      let message
      try {
        message = JSON.parse(line)
      } catch {
        broken = true
        return onNotJson(line)
      }
      onMessage(message)
    }
  })
}

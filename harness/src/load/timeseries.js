// @ts-check
import { createLatencyHistogram, decodeHistogram, encodeHistogram, recordLatencyMs } from './latency-histogram.js'
import { roundTo } from '../platform/util/numbers.js'

/**
 * @typedef {object} Window one slice of a phase
 * @property {number} startMs since the phase started
 * @property {number} durationMs as measured (timers drift; rates use this, not the nominal width)
 * @property {number} requests completed responses in the window
 * @property {number} requestsPerSec
 * @property {{ p50: number, p75: number, p90: number, p99: number } | null} latencyMs null when no response completed
 * @property {number} errors
 * @property {number} [inFlightMs] the time requests spent in flight inside the window, summed over them, completed or not (from each
 *   one's send, or intended send in the open model): divided by durationMs, the mean number in flight (Little's law); engines that
 *   know it only
 *
 * @typedef {object} WindowPart one window as one generator process recorded it, with its histogram, so that the
 *   windows of several processes add up exactly
 * @property {number} startMs
 * @property {number} durationMs
 * @property {number} requests
 * @property {number} errors
 * @property {string | null} histogramUs the window's µs histogram, compressed base64; null when no response completed
 * @property {number} [inFlightUs] the time its requests spent in flight inside the window, in µs (engines that know it: native,
 *   autocannon's closed loop)
 */

/**
 * Cuts a phase into windows of `windowMs` and keeps, per window, the responses, their µs histogram (reset
 * every window) and the errors; with `timeInFlight`, also the time requests spent in flight inside each window, from the
 * changes of the number in flight the engine reports (`inFlightChanged`): the integral of that number over the window, which is
 * each request's time in flight clipped to the window, summed, completed or not.
 * @param {number} windowMs
 * @param {{ timeInFlight?: boolean }} [options]
 */
export function createWindowRecorder (windowMs, { timeInFlight = false } = {}) {
  const histogram = createLatencyHistogram()
  /** @type {WindowPart[]} */
  const parts = []
  let origin = performance.now()
  let windowStart = origin
  let begun = false
  let requests = 0
  let errors = 0
  let inFlight = 0
  let inFlightSince = origin
  let inFlightMs = 0

  /** Adds the time in flight up to `now` to the window's. @param {number} now */
  const accrue = (now) => {
    inFlightMs += inFlight * (now - inFlightSince)
    inFlightSince = now
  }
  const close = () => {
    const now = performance.now()
    const durationMs = now - windowStart
    if (durationMs <= 0) return
    accrue(now)
    parts.push({
      startMs: roundTo(windowStart - origin, 3),
      durationMs: roundTo(durationMs, 3),
      requests,
      errors,
      histogramUs: requests === 0 ? null : encodeHistogram(histogram),
      ...(timeInFlight ? { inFlightUs: Math.round(inFlightMs * 1000) } : {})
    })
    histogram.reset()
    requests = 0
    errors = 0
    inFlightMs = 0
    windowStart = now
  }
  let timer = setInterval(close, windowMs)

  return {
    /** @param {number} latencyMs */
    response (latencyMs) {
      requests += 1
      recordLatencyMs(histogram, latencyMs)
    },
    error () { errors += 1 },
    /**
     * The load starts now (an engine whose own start takes time, autocannon building its clients): the windows start again
     * from here, once; nothing may have been recorded before.
     */
    begin () {
      if (begun) return
      begun = true
      const now = performance.now()
      origin = now
      windowStart = now
      inFlightSince = now
      inFlightMs = 0
      parts.length = 0
      clearInterval(timer)
      timer = setInterval(close, windowMs)
    },
    /** The number of requests in flight changed by `delta`, now. @param {number} delta */
    inFlightChanged (delta) {
      accrue(performance.now())
      inFlight += delta
    },
    /** @returns {WindowPart[]} every window, the last one (shorter) included */
    finish () {
      clearInterval(timer)
      close()
      return parts
    }
  }
}

/**
 * The windows of a phase from the parts each generator process recorded: the parts of the same index add up
 * (requests, errors, histograms), their span is the widest of them.
 * @param {WindowPart[][]} partLists one list per process
 * @returns {Window[]}
 */
export function windowsFromParts (partLists) {
  const count = Math.max(0, ...partLists.map((parts) => parts.length))
  return Array.from({ length: count }, (_, index) => {
    const parts = partLists.map((list) => list[index]).filter((part) => part !== undefined)
    const startMs = Math.min(...parts.map((part) => part.startMs))
    const durationMs = Math.max(...parts.map((part) => part.startMs + part.durationMs)) - startMs
    const requests = parts.reduce((sum, part) => sum + part.requests, 0)
    const histogram = createLatencyHistogram()
    for (const part of parts) if (part.histogramUs) histogram.add(decodeHistogram(part.histogramUs))
    const at = (/** @type {number} */ percentile) => roundTo(histogram.getValueAtPercentile(percentile) / 1000, 3)
    const inFlightUs = parts.every((part) => typeof part.inFlightUs === 'number')
      ? parts.reduce((sum, part) => sum + /** @type {number} */ (part.inFlightUs), 0)
      : null
    return {
      startMs: roundTo(startMs, 3),
      durationMs: roundTo(durationMs, 3),
      requests,
      requestsPerSec: durationMs > 0 ? roundTo(requests / durationMs * 1000, 1) : 0,
      latencyMs: requests === 0 ? null : { p50: at(50), p75: at(75), p90: at(90), p99: at(99) },
      errors: parts.reduce((sum, part) => sum + part.errors, 0),
      ...(inFlightUs === null ? {} : { inFlightMs: roundTo(inFlightUs / 1000, 3) })
    }
  })
}

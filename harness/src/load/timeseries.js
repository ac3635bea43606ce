// @ts-check
import { createLatencyHistogram, recordLatencyMs } from './latency-histogram.js'

/**
 * @typedef {object} Window one slice of a phase
 * @property {number} startMs since the phase started
 * @property {number} durationMs as measured (timers drift; rates use this, not the nominal width)
 * @property {number} requests completed responses in the window
 * @property {number} requestsPerSec
 * @property {{ p50: number, p75: number, p90: number, p99: number } | null} latencyMs null when no response completed
 * @property {number} errors
 */

const round3 = (/** @type {number} */ value) => Math.round(value * 1000) / 1000

/**
 * Cuts a phase into windows of `windowMs` and keeps, per window, the responses, their latency
 * percentiles (from a µs histogram reset every window) and the errors.
 * @param {number} windowMs
 */
export function createWindowRecorder (windowMs) {
  const histogram = createLatencyHistogram()
  /** @type {Window[]} */
  const windows = []
  const origin = performance.now()
  let windowStart = origin
  let requests = 0
  let errors = 0

  const close = () => {
    const now = performance.now()
    const durationMs = now - windowStart
    if (durationMs <= 0) return
    const at = (/** @type {number} */ percentile) => round3(histogram.getValueAtPercentile(percentile) / 1000)
    windows.push({
      startMs: round3(windowStart - origin),
      durationMs: round3(durationMs),
      requests,
      requestsPerSec: Math.round(requests / durationMs * 1000 * 10) / 10,
      latencyMs: requests === 0 ? null : { p50: at(50), p75: at(75), p90: at(90), p99: at(99) },
      errors
    })
    histogram.reset()
    requests = 0
    errors = 0
    windowStart = now
  }
  const timer = setInterval(close, windowMs)

  return {
    /** @param {number} latencyMs */
    response (latencyMs) {
      requests += 1
      recordLatencyMs(histogram, latencyMs)
    },
    error () { errors += 1 },
    /** @returns {Window[]} every window, the last one (shorter) included */
    finish () {
      clearInterval(timer)
      close()
      return windows
    }
  }
}

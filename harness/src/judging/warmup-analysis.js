// @ts-check
import { median } from 'simple-statistics'
import { roundTo } from '../platform/util/numbers.js'

/**
 * When does a SUT reach its steady state? Node servers get faster during their first seconds under
 * load (JIT), which a single average hides. This reads the windows of the warmup and the measurement,
 * as one timeline, and finds the first window from which latency stays near its steady value.
 *
 * - steady median: the median of the window p50 latencies over the last half of the measurement;
 * - rolling median: the median p50 of each window and the `ROLLING_WINDOWS - 1` before it;
 * - stableAfterMs: the start of the first window from which every rolling median stays within
 *   ±BAND of the steady median; null when it never settles, including when the second half of the
 *   measurement (the steady reference itself) still drifts out of the band;
 * - steadySpeedup: steady req/s over the req/s of the first second of load.
 */

/** How many windows the rolling median spans (1 s at the default 250 ms windows). */
export const ROLLING_WINDOWS = 4
/** The band around the steady median that counts as stable: ±15%, and never narrower than ±20 µs. */
export const BAND_FRACTION = 0.15
export const BAND_MIN_MS = 0.02

/**
 * @param {import('./series-window.js').SeriesWindow[]} warmup
 * @param {import('./series-window.js').SeriesWindow[]} measure
 */
export function analyzeWarmup (warmup, measure) {
  const warmupMs = warmup.reduce((sum, window) => sum + window.durationMs, 0)
  const timeline = [...warmup, ...measure.map((window) => ({ ...window, startMs: window.startMs + warmupMs }))]
    .filter((window) => window.latencyMs !== null)
  const steadyWindows = measure.slice(Math.floor(measure.length / 2)).filter((window) => window.latencyMs !== null)
  if (steadyWindows.length === 0 || timeline.length < ROLLING_WINDOWS) {
    return {
      stableAfterMs: null,
      steadyLatencyP50Ms: null,
      firstSecondRequestsPerSec: null,
      steadyRequestsPerSec: null,
      steadySpeedup: null,
      reason: 'too few windows with responses'
    }
  }
  const steadyLatency = median(steadyWindows.map((window) => /** @type {{ p50: number }} */ (window.latencyMs).p50))
  const band = Math.max(steadyLatency * BAND_FRACTION, BAND_MIN_MS)
  const rolling = timeline.map((_, index) => median(timeline.slice(Math.max(0, index - ROLLING_WINDOWS + 1), index + 1)
    .map((window) => /** @type {{ p50: number }} */ (window.latencyMs).p50)))
  let stableFrom = -1
  for (let index = rolling.length - 1; index >= 0; index--) {
    if (Math.abs(rolling[index] - steadyLatency) > band) break
    stableFrom = index
  }
  // The steady reference must itself be stable: a latency that still drifts in the second half never settled.
  const firstSteadyIndex = timeline.length - steadyWindows.length
  if (stableFrom > firstSteadyIndex) stableFrom = -1
  const firstSecond = timeline.filter((window) => window.startMs < 1000)
  const rate = (/** @type {typeof timeline} */ windows) => {
    const durationMs = windows.reduce((sum, window) => sum + window.durationMs, 0)
    return durationMs === 0 ? 0 : windows.reduce((sum, window) => sum + window.requests, 0) / durationMs * 1000
  }
  const firstSecondRate = rate(firstSecond)
  const steadyRate = rate(steadyWindows)
  return {
    // The start of the window whose rolling median is the first to stay in the band (conservative).
    stableAfterMs: stableFrom === -1 ? null : roundTo(timeline[stableFrom].startMs, 3),
    steadyLatencyP50Ms: roundTo(steadyLatency, 3),
    firstSecondRequestsPerSec: Math.round(firstSecondRate),
    steadyRequestsPerSec: Math.round(steadyRate),
    steadySpeedup: firstSecondRate === 0 ? null : roundTo(steadyRate / firstSecondRate, 3),
    reason: stableFrom === -1 ? 'latency never settled: it left the band of its steady value in the second half of the measurement' : null
  }
}

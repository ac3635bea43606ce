// @ts-check
import { createLatencyHistogram, decodeHistogram, latencySummaryMs } from '../load/latency-histogram.js'

/**
 * Latency percentiles of several runs together, from their merged µs histograms: percentiles of
 * the union of all responses, never an average of percentiles.
 * @param {string[]} encodedHistograms latencyHistogramUs of each run
 * @returns {ReturnType<typeof latencySummaryMs>}
 */
export function mergedLatencyMs (encodedHistograms) {
  const merged = createLatencyHistogram()
  for (const encoded of encodedHistograms) merged.add(decodeHistogram(encoded))
  return latencySummaryMs(merged)
}

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

/** The percentiles a latency distribution chart plots: the body, then the tail in nines. */
export const DISTRIBUTION_PERCENTILES = Object.freeze([50, 75, 90, 95, 99, 99.9, 99.99, 99.999, 100])

/**
 * The latency at each of DISTRIBUTION_PERCENTILES, in ms, over the union of several runs' responses.
 * @param {string[]} encodedHistograms
 * @returns {{ percentile: number, latencyMs: number }[]} empty when no response was recorded
 */
export function mergedLatencyDistributionMs (encodedHistograms) {
  const merged = createLatencyHistogram()
  for (const encoded of encodedHistograms) merged.add(decodeHistogram(encoded))
  if (merged.totalCount === 0) return []
  return DISTRIBUTION_PERCENTILES.map((percentile) => ({
    percentile,
    latencyMs: Math.round(merged.getValueAtPercentile(percentile)) / 1000
  }))
}

// @ts-check
import * as hdr from 'hdr-histogram-js'
import { roundTo } from '../platform/util/numbers.js'

/** Latencies are recorded in µs, from 1 µs up to 60 s (longer answers clamp to 60 s), 3 significant digits. */
const HISTOGRAM_REQUEST = Object.freeze({
  lowestDiscernibleValue: 1,
  highestTrackableValue: 60_000_000,
  numberOfSignificantValueDigits: /** @type {3} */ (3),
  autoResize: false,
  bitBucketSize: /** @type {32} */ (32)
})
export const MAX_LATENCY_US = HISTOGRAM_REQUEST.highestTrackableValue

/** @returns {import('hdr-histogram-js').Histogram} an empty µs histogram */
export function createLatencyHistogram () {
  return hdr.build(HISTOGRAM_REQUEST)
}

/**
 * @param {import('hdr-histogram-js').Histogram} histogram
 * @param {number} latencyMs autocannon's response time, a float in ms from hrtime
 */
export function recordLatencyMs (histogram, latencyMs) {
  const latencyUs = Math.round(latencyMs * 1000)
  histogram.recordValue(latencyUs < 1 ? 1 : latencyUs > MAX_LATENCY_US ? MAX_LATENCY_US : latencyUs)
}

/** @param {import('hdr-histogram-js').Histogram} histogram @returns {string} compressed base64, decodable by any HdrHistogram */
export function encodeHistogram (histogram) {
  return hdr.encodeIntoCompressedBase64(histogram)
}

/** @param {string} encoded @returns {import('hdr-histogram-js').Histogram} */
export function decodeHistogram (encoded) {
  return hdr.decodeFromCompressedBase64(encoded)
}

const US_PER_MS = 1000

/**
 * The mean and standard deviation of a histogram's values as HdrHistogram defines them (each bucket's count at the bucket's
 * median equivalent value, deviations from the mean), in two plain passes over the buckets. The library's getters walk an
 * iterator that allocates at every bucket (the deviation walks it twice): over the 188 histograms of a default run, 1,539 ms
 * that way and 247 ms this way, paid twice per cell and once more per aggregate.
 * @param {import('hdr-histogram-js').Histogram} histogram not empty
 * @returns {{ meanUs: number, stdevUs: number }}
 */
export function meanAndDeviationUs (histogram) {
  // The bucket accessors of the library's JavaScript histograms (what hdr.build makes), not in its Histogram interface.
  const buckets =
    /** @type {{ countsArrayLength: number, getCountAtIndex: (index: number) => number, valueFromIndex: (index: number) => number,
    medianEquivalentValue: (value: number) => number }} */ (/** @type {unknown} */ (histogram))
  const length = buckets.countsArrayLength
  let total = 0
  for (let index = 0; index < length; index++) {
    const count = buckets.getCountAtIndex(index)
    if (count !== 0) total += buckets.medianEquivalentValue(buckets.valueFromIndex(index)) * count
  }
  const meanUs = total / histogram.totalCount
  let squares = 0
  for (let index = 0; index < length; index++) {
    const count = buckets.getCountAtIndex(index)
    if (count === 0) continue
    const deviation = buckets.medianEquivalentValue(buckets.valueFromIndex(index)) - meanUs
    squares += deviation * deviation * count
  }
  return { meanUs, stdevUs: Math.sqrt(squares / histogram.totalCount) }
}

/**
 * Latency summary in ms (with µs precision) read from a µs histogram; null when nothing was recorded.
 * @param {import('hdr-histogram-js').Histogram} histogram
 */
export function latencySummaryMs (histogram) {
  if (histogram.totalCount === 0) return null
  const at = (/** @type {number} */ percentile) => roundTo(histogram.getValueAtPercentile(percentile) / US_PER_MS, 3)
  const { meanUs, stdevUs } = meanAndDeviationUs(histogram)
  return {
    mean: roundTo(meanUs / US_PER_MS, 3),
    stdev: roundTo(stdevUs / US_PER_MS, 3),
    min: roundTo(histogram.minNonZeroValue / US_PER_MS, 3),
    p50: at(50),
    p75: at(75),
    p90: at(90),
    p99: at(99),
    p99_9: at(99.9),
    p99_99: at(99.99),
    max: roundTo(histogram.maxValue / US_PER_MS, 3)
  }
}

// @ts-check
// A cell's time series classified as Barrett et al. ("Virtual Machine Warmup Blows Hot and Cold", OOPSLA 2017) classify a
// process's in-process iterations: the change points of its mean (stats/pelt.js), neighbouring segments whose means differ by less
// than the series' own noise merged into one, and the last segment taken as the steady state when it is long enough:
// - flat: one segment, no change at all;
// - warm-up: the steady state is the best segment (within the noise);
// - slowdown: an earlier segment was better than the steady state;
// - no steady state: the series still changes too close to its end to call any segment its steady state.
// The series is a cost, lower better (latency, time per request); a throughput is classified on its inverse.
import { peltChangePoints } from '../stats/pelt.js'

/**
 * @typedef {'flat' | 'warm-up' | 'slowdown' | 'no steady state'} Classification
 *
 * @typedef {object} SeriesClassification
 * @property {Classification} classification
 * @property {number[]} changePoints where each merged segment starts, as window indices
 * @property {{ start: number, mean: number }[]} segments each merged segment's first window and its mean
 * @property {number | null} steadyFrom the first window of the steady state; null: none
 * @property {number | null} steadyLevel the steady state's mean; null: none
 */

/** The settings of the classification: what the minimum series length follows from. */
export const CLASSIFICATION_SETTINGS = Object.freeze({
  /** Windows a segment must hold: fewer cannot tell a change from a spike. */
  minSegmentLength: 3,
  /** The steady state must hold at least this share of the series (and at least two segments' length). */
  minSteadyShare: 0.25
})

/** The shortest series the classification judges: a steady state of its minimum share, and a segment before it. */
export const MIN_SERIES_LENGTH = Math.ceil(2 * CLASSIFICATION_SETTINGS.minSegmentLength / CLASSIFICATION_SETTINGS.minSteadyShare)

/**
 * @param {number[]} series one value per window, a cost (lower better), in order
 * @returns {SeriesClassification}
 * @throws {RangeError} a series shorter than MIN_SERIES_LENGTH (the options refuse such a run before it starts)
 */
export function classifySeries (series) {
  if (series.length < MIN_SERIES_LENGTH) throw new RangeError(`a series of ${series.length} windows; the classification needs ${MIN_SERIES_LENGTH}`)
  const { minSegmentLength, minSteadyShare } = CLASSIFICATION_SETTINGS
  const { changePoints, sigma } = peltChangePoints(series, { minSegmentLength })
  const bounds = [0, ...changePoints, series.length]
  const mean = (/** @type {number} */ from, /** @type {number} */ to) => series.slice(from, to).reduce((sum, value) => sum + value, 0) / (to - from)
  /** @type {{ start: number, end: number, mean: number }[]} */
  const merged = []
  for (let index = 1; index < bounds.length; index++) {
    const segment = { start: bounds[index - 1], end: bounds[index], mean: mean(bounds[index - 1], bounds[index]) }
    const previous = merged[merged.length - 1]
    // Two neighbours whose means differ by less than what the noise gives two segments of their lengths are one level.
    const noise = 3 * sigma * Math.sqrt(1 / Math.max(1, previous ? previous.end - previous.start : 1) + 1 / (segment.end - segment.start))
    if (previous && Math.abs(previous.mean - segment.mean) <= noise) {
      previous.end = segment.end
      previous.mean = mean(previous.start, previous.end)
    } else {
      merged.push(segment)
    }
  }
  const segments = merged.map(({ start, mean: level }) => ({ start, mean: level }))
  const result = (/** @type {Classification} */ classification, /** @type {{ start: number, mean: number } | null} */ steady) => ({
    classification,
    changePoints: segments.slice(1).map((segment) => segment.start),
    segments,
    steadyFrom: steady?.start ?? null,
    steadyLevel: steady?.mean ?? null
  })
  if (merged.length === 1) return result('flat', segments[0])
  const last = merged[merged.length - 1]
  if (last.end - last.start < Math.max(minSteadyShare * series.length, 2 * minSegmentLength)) return result('no steady state', null)
  const steady = { start: last.start, mean: last.mean }
  const tolerance = 3 * sigma / Math.sqrt(last.end - last.start)
  const betterBefore = merged.slice(0, -1).some((segment) => segment.mean < last.mean - tolerance)
  return result(betterBefore ? 'slowdown' : 'warm-up', steady)
}

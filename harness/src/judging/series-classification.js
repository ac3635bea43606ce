// @ts-check
// A cell's time series classified as Barrett et al. ("Virtual Machine Warmup Blows Hot and Cold", OOPSLA 2017) classify a
// process's in-process iterations, with their thresholds (softdevteam/warmup_stats) but one (the band's width, below):
// - change points of the mean by PELT (stats/pelt.js) with their penalty of 15·ln(n), here in units of the series' own noise (σ²);
// - each segment's band: its median ± 2 × (its 90th − its 10th percentile); two segments are equivalent when their bands overlap;
// - flat: no change at all, or every change within the bands (the first segment's mean within the last one's band);
// - no steady state: the series still changes in its last quarter (where a steady state is expected) to a level not equivalent to
//   the one before;
// - slowdown: an earlier segment was faster than the last and not equivalent to it;
// - warm-up: otherwise: the last segment is the fastest, or equivalent to every faster one.
// The steady state is the run of segments up to the last that are each equivalent to it (the first segment excluded, as Barrett et
// al. exclude it: a short, slow start would make every band wide); its level is their mean. A level that moves within the bands (a
// VM whose speed drifts by a few percent) is one steady state; a change in the last quarter to a level outside them is none. The series is a cost, lower better
// (latency, time per request); a throughput is classified on its inverse.
import { quantileSorted } from 'simple-statistics'
import { peltChangePoints } from '../stats/pelt.js'

/**
 * @typedef {'flat' | 'warm-up' | 'slowdown' | 'no steady state'} Classification
 *
 * @typedef {object} SeriesClassification
 * @property {Classification} classification
 * @property {number[]} changePoints where each segment starts, as window indices
 * @property {{ start: number, mean: number }[]} segments each segment's first window and its mean
 * @property {number | null} steadyFrom the first window of the steady state; null: none
 * @property {number | null} steadyLevel the steady state's mean; null: none
 */

/** The settings of the classification: what the minimum series length follows from. */
export const CLASSIFICATION_SETTINGS = Object.freeze({
  /** Windows a segment must hold: fewer cannot tell a change from a spike. */
  minSegmentLength: 3,
  /** The last share of the series in which a steady state must hold without a change (Barrett et al.: the last 500 of 2000). */
  minSteadyShare: 0.25,
  /** PELT's penalty per change, in ln(n)·σ² (Barrett et al.'s 15·ln(n)). */
  penaltyPerLnN: 15,
  /**
   * A segment's band: its median ± this many times the distance between its 10th and 90th percentiles. Barrett et al. take 3, for
   * iteration times on a machine kept quiet; on 250 ms windows here, 3 called a 2.1× warm-up flat (express × json, 2 s warm-up + 5 s)
   * and 1 found no steady state in series whose level drifts by ±12% with the VM (fastify and python-flask, 60 s). 2 is between
   * (docs/measuring.md, "How a run is classified").
   */
  bandWidths: 2
})

/** The shortest series the classification judges: its steady quarter, and a segment before it. */
export const MIN_SERIES_LENGTH = Math.ceil(2 * CLASSIFICATION_SETTINGS.minSegmentLength / CLASSIFICATION_SETTINGS.minSteadyShare)

/**
 * @param {number[]} series one value per window, a cost (lower better), in order
 * @returns {SeriesClassification}
 * @throws {RangeError} a series shorter than MIN_SERIES_LENGTH (the options refuse such a run before it starts)
 */
export function classifySeries (series) {
  if (series.length < MIN_SERIES_LENGTH) throw new RangeError(`a series of ${series.length} windows; the classification needs ${MIN_SERIES_LENGTH}`)
  const { minSegmentLength, minSteadyShare, penaltyPerLnN, bandWidths } = CLASSIFICATION_SETTINGS
  const n = series.length
  const { sigma } = peltChangePoints(series, { minSegmentLength })
  const { changePoints } = peltChangePoints(series, { minSegmentLength, penalty: penaltyPerLnN * Math.log(n) * Math.max(sigma, Number.EPSILON) ** 2 })
  const bounds = [0, ...changePoints, n]
  /**
   * Their median ± bandWidths × (90th − 10th percentile) of their spread around their own straight line: a segment that is still
   * moving (a ramp up after a stall, a warm-up's first windows) has the band of its noise, not of its slope, so that a series which
   * ends on a ramp is not made equivalent to everything by it.
   * @param {number[]} values @returns {{ low: number, high: number }}
   */
  const band = (values) => {
    const sorted = [...values].sort((a, b) => a - b)
    const median = quantileSorted(sorted, 0.5)
    const residuals = detrended(values).sort((a, b) => a - b)
    const width = bandWidths * (quantileSorted(residuals, 0.9) - quantileSorted(residuals, 0.1))
    return { low: median - width, high: median + width }
  }
  const segments = bounds.slice(1).map((end, index) => {
    const values = series.slice(bounds[index], end)
    return { start: bounds[index], end, mean: values.reduce((sum, value) => sum + value, 0) / values.length, ...band(values) }
  })
  const last = segments[segments.length - 1]
  const equivalent = (/** @type {typeof last} */ segment) => !(segment.high < last.low || last.high < segment.low)
  // The steady state: back from the last segment over those equivalent to it, never into the first.
  // A short segment that is not equivalent between two that are (a stall of a few windows, a collection's pause) is passed over, as
  // Barrett et al. take outliers out before they look for change points.
  const transient = (/** @type {number} */ index) => segments[index].end - segments[index].start <= 2 * minSegmentLength
  let steadyIndex = segments.length - 1
  while (steadyIndex > 1) {
    if (equivalent(segments[steadyIndex - 1])) steadyIndex -= 1
    else if (steadyIndex > 2 && transient(steadyIndex - 1) && equivalent(segments[steadyIndex - 2])) steadyIndex -= 2
    else break
  }
  // The first segment joins the steady state only when its mean, not just its band, lies in the band of the steady state's windows: a
  // warm-up's first segment holds the ramp, and its own band is wide.
  if (steadyIndex === 1) {
    const steady = band(series.slice(segments[1].start))
    if (segments[0].mean >= steady.low && segments[0].mean <= steady.high) steadyIndex = 0
  }
  /** @param {Classification} classification @param {number | null} from */
  const result = (classification, from) => ({
    classification,
    changePoints,
    segments: segments.map(({ start, mean }) => ({ start, mean })),
    steadyFrom: from,
    steadyLevel: from === null ? null : series.slice(from).reduce((sum, value) => sum + value, 0) / (n - from)
  })
  if (segments.length === 1 || steadyIndex === 0) return result('flat', 0)
  if (segments[steadyIndex].start > n - minSteadyShare * n) return result('no steady state', null)
  const fasterBefore = segments.slice(0, -1).some((segment) => segment.mean < last.mean && !equivalent(segment))
  return result(fasterBefore ? 'slowdown' : 'warm-up', segments[steadyIndex].start)
}

/** @param {number[]} values @returns {number[]} each value less the least-squares line through them all */
function detrended (values) {
  const n = values.length
  const meanX = (n - 1) / 2
  const meanY = values.reduce((sum, value) => sum + value, 0) / n
  let covariance = 0
  let variance = 0
  values.forEach((value, x) => {
    covariance += (x - meanX) * (value - meanY)
    variance += (x - meanX) ** 2
  })
  const slope = variance === 0 ? 0 : covariance / variance
  return values.map((value, x) => value - (meanY + slope * (x - meanX)))
}

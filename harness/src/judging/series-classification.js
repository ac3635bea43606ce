// @ts-check
// A cell's time series classified as Barrett et al. ("Virtual Machine Warmup Blows Hot and Cold", OOPSLA 2017) classify a
// process's in-process iterations, with their rules (softdevteam/warmup_stats, bin/mark_changepoints_in_json) and one setting
// argued for windows of a shared machine (the level's band, below):
// - change points of the mean by PELT (stats/pelt.js) with their penalty of 15·ln(n), here in units of the series' own noise (σ²);
// - each segment's level is its mean; two segments are equivalent when their levels differ by no more than the band: three standard
//   errors of the difference of the two means (from the series' noise at the scale of a second), and never less than a tenth of the
//   larger level (the machine's own drift within a minute);
// - walking back from the last segment over those equivalent to it (a short blip before the steady quarter passed over), the first
//   segment that is not equivalent decides: it ends in the last quarter: no steady state; it was better: slowdown; else warm-up;
//   none: flat. Any earlier segment better than the last by more than the band makes it a slowdown, never a warm-up.
// The steady state is the run of segments the walk went back over; its level is their windows' mean.
import { medianAbsoluteDeviation } from 'simple-statistics'
import { peltChangePoints } from './stats/pelt.js'

/**
 * @typedef {'flat' | 'warm-up' | 'slowdown' | 'no steady state'} Classification
 *
 * @typedef {object} SeriesClassification
 * @property {Classification} classification
 * @property {number[]} changePoints where each segment starts, as window indices
 * @property {{ start: number, mean: number }[]} segments each segment's first window and its mean
 * @property {number | null} steadyFrom the first window of the steady state; null: none
 * @property {number | null} steadyLevel the steady state's mean; null: none
 *
 * @typedef {object} SeriesShape
 * @property {'higher' | 'lower'} better which way is faster: higher for a throughput, lower for a latency
 * @property {number} windowsPerSecond how many windows make a second: the scale at which the series' level noise is read
 */

/** The classes, in the order Barrett et al. name them. */
export const CLASSIFICATIONS = /** @type {readonly Classification[]} */ (Object.freeze(['flat', 'warm-up', 'slowdown', 'no steady state']))

/** The settings of the classification (docs/measuring.md, "How a run is classified"). */
export const CLASSIFICATION_SETTINGS = Object.freeze({
  /** Windows a segment must hold: fewer cannot tell a change from a spike. */
  minSegmentLength: 3,
  /** The last share of the series in which a steady state must hold without a change (Barrett et al.: the last 500 of 2000). */
  minSteadyShare: 0.25,
  /** PELT's penalty per change, in ln(n)·σ² (Barrett et al.'s 15·ln(n)). */
  penaltyPerLnN: 15,
  /**
   * The band's floor: two levels closer than this share of the larger one are one level. Barrett et al. take an absolute δ of 1 ms on
   * iterations of about a second, on machines kept quiet; a shared machine's level moves by more than that within a minute (the
   * machine's minute-to-minute spread here is ±3–8 %), so a tenth.
   */
  levelFloorShare: 0.1,
  /** The band beyond its floor: this many standard errors of the difference of two segments' means. */
  levelStandardErrors: 3
})

/** The shortest series the classification judges: its steady quarter, and a segment before it. */
export const MIN_SERIES_LENGTH = Math.ceil(2 * CLASSIFICATION_SETTINGS.minSegmentLength / CLASSIFICATION_SETTINGS.minSteadyShare)

/** 1.4826 × the MAD estimates a normal spread's standard deviation; successive differences have √2 times the series' spread. */
const MAD_TO_SD = 1.4826

/**
 * @param {number[]} series one value per window, in order
 * @param {SeriesShape} shape
 * @returns {SeriesClassification}
 * @throws {RangeError} a series shorter than MIN_SERIES_LENGTH (the options refuse such a run before it starts)
 */
export function classifySeries (series, { better, windowsPerSecond }) {
  if (series.length < MIN_SERIES_LENGTH) {
    throw new RangeError(`a series of ${series.length} windows; the classification needs ${MIN_SERIES_LENGTH}`)
  }
  const { minSegmentLength, minSteadyShare, penaltyPerLnN } = CLASSIFICATION_SETTINGS
  const n = series.length
  const { sigma } = peltChangePoints(series, { minSegmentLength })
  const { changePoints } = peltChangePoints(series, {
    minSegmentLength,
    penalty: penaltyPerLnN * Math.log(n) * Math.max(sigma, Number.EPSILON) ** 2
  })
  const bounds = [0, ...changePoints, n]
  const segments = bounds.slice(1).map((end, index) => ({ start: bounds[index], end, mean: mean(series.slice(bounds[index], end)) }))
  const equivalent = levelBand(series, windowsPerSecond)
  /** @param {{ mean: number }} segment @param {{ mean: number }} other */
  const isBetter = (segment, other) => better === 'higher' ? segment.mean > other.mean : segment.mean < other.mean
  const last = segments[segments.length - 1]
  const steadyQuarterStart = n - minSteadyShare * n
  // Back from the last segment over those equivalent to it. A short segment between two segments equivalent to the last (a stall of
  // a second, a collection's pause, a burst of the machine) is passed over, as Barrett et al. take outliers out first, but only before
  // the steady quarter: a series that keeps stalling to its end has no steady state.
  let steadyIndex = segments.length - 1
  while (steadyIndex > 0) {
    const before = segments[steadyIndex - 1]
    if (equivalent(before, last)) {
      steadyIndex -= 1
      continue
    }
    const blip = before.end - before.start <= 2 * minSegmentLength && before.end <= steadyQuarterStart
    if (blip && steadyIndex > 1 && equivalent(segments[steadyIndex - 2], last)) {
      steadyIndex -= 2
      continue
    }
    break
  }
  /** @param {Classification} classification @param {number | null} from */
  const result = (classification, from) => ({
    classification,
    changePoints,
    segments: segments.map(({ start, mean }) => ({ start, mean })),
    steadyFrom: from,
    steadyLevel: from === null ? null : mean(series.slice(from))
  })
  if (steadyIndex === 0) return result('flat', 0)
  const steadyFrom = segments[steadyIndex].start
  if (steadyFrom > steadyQuarterStart) return result('no steady state', null)
  const betterBefore = segments.slice(0, steadyIndex).some((segment) => isBetter(segment, last) && !equivalent(segment, last))
  return result(betterBefore ? 'slowdown' : 'warm-up', steadyFrom)
}

/**
 * Whether two segments' levels are one: their means differ by no more than the band. The noise of a level is read from the series'
 * means over each second, by their successive differences (which a change of level, a stall or a ramp does not inflate), and a
 * segment's mean over m windows has that noise over √(m / windowsPerSecond); the band is levelStandardErrors standard errors of the
 * difference of the two means, never below levelFloorShare of the larger level.
 * @param {number[]} series @param {number} windowsPerSecond
 * @returns {(a: { start: number, end: number, mean: number }, b: { start: number, end: number, mean: number }) => boolean}
 */
function levelBand (series, windowsPerSecond) {
  const { levelFloorShare, levelStandardErrors } = CLASSIFICATION_SETTINGS
  const perBlock = Math.max(1, Math.round(windowsPerSecond))
  const blocks = []
  for (let start = 0; start + perBlock <= series.length; start += perBlock) blocks.push(mean(series.slice(start, start + perBlock)))
  const differences = blocks.slice(1).map((value, index) => value - blocks[index])
  const blockSd = differences.length < 2 ? 0 : MAD_TO_SD * medianAbsoluteDeviation(differences) / Math.SQRT2
  return (a, b) => {
    const standardError = blockSd * Math.sqrt(perBlock / (a.end - a.start) + perBlock / (b.end - b.start))
    const band = Math.max(levelFloorShare * Math.max(Math.abs(a.mean), Math.abs(b.mean)), levelStandardErrors * standardError)
    return Math.abs(a.mean - b.mean) <= band
  }
}

/** @param {number[]} values @returns {number} */
function mean (values) {
  return values.reduce((sum, value) => sum + value, 0) / values.length
}

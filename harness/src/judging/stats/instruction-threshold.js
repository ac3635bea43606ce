// @ts-check
// The threshold of an instruction-count row when none is given: the row's own A/A spread, measured in the comparison
// itself. Two counts of the same code differ window by window (a collection, a timer); the per-window ratios
// candidate / baseline show that spread, which a real change shifts but does not widen. The change is estimated over
// all n windows, so two counts of the same code give estimates spread by the ratios' standard deviation / √n: the
// threshold is the band that holds 95% of those A/A estimates (SPREAD_BAND × that standard error). A change inside it
// is not called, however significant. The floor covers what one pair of counts cannot show: an offset between two
// launches of the same code that moves every window alike.
import { medianAbsoluteDeviation } from 'simple-statistics'
import { roundToFixed } from '../../platform/util/numbers.js'

/** 1.4826 × the median absolute deviation estimates a normal spread's standard deviation, unmoved by one odd window. */
const MAD_TO_SD = 1.4826
/** Standard errors either side of zero that hold 95% of the A/A estimates. */
export const SPREAD_BAND = 1.96

/**
 * The floor of an instruction-count threshold, in percent: what one comparison's windows cannot show, the offset between two launches
 * of the same code (the figures of harness/bench/instruction-compare-detects-a-slowdown.js are in docs/measuring.md, "Instruction
 * counts").
 */
export const INSTRUCTION_THRESHOLD_FLOOR_PCT = 0.5

/**
 * @typedef {object} RowThreshold
 * @property {number} percent
 * @property {'given' | 'default' | 'spread' | 'floor'} from given: --threshold; default: the fixed one of wall-clock results;
 *   spread: the row's A/A spread (instruction counts, instruction-threshold.js); floor: that spread was below the floor, or not measurable
 * @property {number | null} spreadPercent the band that holds 95% of the changes two counts of the same code give, from the spread of
 *   the row's per-window ratios, in percent (instruction counts without --threshold)
 */

/**
 * @param {{ baseline: number[], candidate: number[], paired: boolean }} windows instructions per request of each counted window
 * @param {{ givenPercent: number | null, floorPercent: number }} settings
 * @returns {RowThreshold}
 */
export function instructionThreshold ({ baseline, candidate, paired }, { givenPercent, floorPercent }) {
  if (givenPercent !== null) return { percent: givenPercent, from: 'given', spreadPercent: null }
  const error = paired && baseline.length === candidate.length ? pairedError(baseline, candidate) : unpairedError(baseline, candidate)
  if (error === null) return { percent: floorPercent, from: 'floor', spreadPercent: null }
  const spreadPercent = roundToFixed(SPREAD_BAND * error * 100, 2)
  return spreadPercent > floorPercent
    ? { percent: spreadPercent, from: 'spread', spreadPercent }
    : { percent: floorPercent, from: 'floor', spreadPercent }
}

/** @param {number[]} baseline @param {number[]} candidate @returns {number | null} the standard error of the mean per-window log ratio */
function pairedError (baseline, candidate) {
  if (baseline.length < 3) return null
  const logRatios = candidate.map((value, index) => Math.log(value / baseline[index]))
  return MAD_TO_SD * medianAbsoluteDeviation(logRatios) / Math.sqrt(logRatios.length)
}

/**
 * Windows that cannot be paired: the standard error of the difference of the sides' mean log values, from each side's
 * own spread (their variances add).
 * @param {number[]} baseline @param {number[]} candidate @returns {number | null}
 */
function unpairedError (baseline, candidate) {
  if (baseline.length < 3 || candidate.length < 3) return null
  const variance = (/** @type {number[]} */ values) => (MAD_TO_SD * medianAbsoluteDeviation(values.map(Math.log))) ** 2 / values.length
  return Math.sqrt(variance(baseline) + variance(candidate))
}

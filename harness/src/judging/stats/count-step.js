// @ts-check
// Whether one count steps from another: the Hodges–Lehmann ratio of their windows (program instructions per request) with its 95%
// interval, against the threshold of the pair's own window-to-window spread (instruction-threshold.js, never below its floor) or a
// threshold given, whichever is higher. A step is a change whose interval excludes no change and whose size passes the threshold:
// what `dyno compare` calls a regression or an improvement of a count, for the timeline's neighbouring releases and for bisect.
import { roundTo } from '../../platform/util/numbers.js'
import { hodgesLehmannRatio } from './hodges-lehmann.js'
import { INSTRUCTION_THRESHOLD_FLOOR_PCT, instructionThreshold } from './instruction-threshold.js'
import { SIGNIFICANCE_ALPHA } from './significance.js'

/**
 * @typedef {object} CountStep
 * @property {number} changePct the estimated change, in percent (positive: more per request)
 * @property {[number, number]} intervalPct its 95% interval, in percent (the point twice when the windows are too few for one)
 * @property {number} thresholdPct the smallest change called a step on this pair
 * @property {boolean} steps
 */

/**
 * @param {number[]} baseline @param {number[]} candidate each window's figure, all above 0
 * @param {{ givenPercent?: number | null }} [options]
 * @returns {CountStep}
 */
export function countStep (baseline, candidate, { givenPercent = null } = {}) {
  const estimate = hodgesLehmannRatio(baseline, candidate, { alpha: SIGNIFICANCE_ALPHA })
  const spread = instructionThreshold(
    { baseline, candidate, paired: false },
    { givenPercent: null, floorPercent: INSTRUCTION_THRESHOLD_FLOOR_PCT }
  )
  const thresholdPct = Math.max(spread.percent, givenPercent ?? 0)
  const changePct = roundTo((estimate.ratio - 1) * 100, 2)
  const interval = estimate.interval ?? [estimate.ratio, estimate.ratio]
  const intervalPct = /** @type {[number, number]} */ (interval.map((ratio) => roundTo((ratio - 1) * 100, 2)))
  const steps = estimate.interval !== null && (interval[0] > 1 || interval[1] < 1) && Math.abs(changePct) > thresholdPct
  return { changePct, intervalPct, thresholdPct, steps }
}

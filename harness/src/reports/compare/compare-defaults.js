// @ts-check
import { INSTRUCTION_THRESHOLD_FLOOR_PCT } from '../../judging/stats/instruction-threshold.js'
import { SIGNIFICANCE_ALPHA } from '../../judging/stats/significance.js'
import { WALL_CLOCK_THRESHOLD_PCT } from '../../measures/wall-clock/wall-clock-comparison.js'

/** The defaults of `dyno compare`, in one place. */
export const COMPARE_DEFAULTS = Object.freeze({
  /** Smallest relative change of req/s, in percent, that a verdict calls improved or regressed (wall-clock results). */
  thresholdPercent: WALL_CLOCK_THRESHOLD_PCT,
  /**
   * Instruction counts (--measure instructions) get no fixed threshold unless one is given: each row's is its own
   * measured A/A spread (stats/instruction-threshold.js), never below this floor, in percent.
   */
  instructionThresholdFloorPercent: INSTRUCTION_THRESHOLD_FLOOR_PCT,
  /** Significance level of the tests; the confidence intervals are at 1 − alpha (95%). */
  alpha: SIGNIFICANCE_ALPHA,
  format: 'table'
})

/** What `--fail-on` may name: a significant regression beyond the threshold, a row that could not be compared. */
export const FAIL_ON_CONDITIONS = /** @type {const} */ (['regression', 'not-comparable'])

/** The version of the `--format json` document (harness/schema/compare.schema.json). */
export const COMPARE_SCHEMA_VERSION = 5

// @ts-check
import { SIGNIFICANCE_ALPHA } from '../stats/significance.js'

/** The defaults of `dyno compare`, in one place. */
export const COMPARE_DEFAULTS = Object.freeze({
  /** Smallest relative change of req/s, in percent, that a verdict calls improved or regressed (wall-clock results). */
  thresholdPercent: 5,
  /**
   * Instruction counts (--measure instructions) get no fixed threshold unless one is given: each row's is its own
   * measured A/A spread (instruction-threshold.js), never below this floor, in percent. The floor stands for what
   * one comparison's windows cannot show: the offset between two launches of the same code (the figures of
   * harness/bench/instruction-compare-detects-a-slowdown.js are in docs/measuring.md, "Instruction counts").
   */
  instructionThresholdFloorPercent: 0.5,
  /** Significance level of the tests; the confidence intervals are at 1 − alpha (95%). */
  alpha: SIGNIFICANCE_ALPHA,
  format: 'table'
})

/** Output formats of `dyno compare --format`. */
export const COMPARE_FORMATS = /** @type {const} */ (['table', 'md', 'json', 'bmf', 'gab', 'gab-p99', 'gab-instructions'])

/** What `--fail-on` may name: a significant regression beyond the threshold, a row that could not be compared. */
export const FAIL_ON_CONDITIONS = /** @type {const} */ (['regression', 'not-comparable'])

/** The version of the `--format json` document (harness/schema/compare.schema.json). */
export const COMPARE_SCHEMA_VERSION = 4

// @ts-check
/** The defaults of `dyno compare`, in one place. */
export const COMPARE_DEFAULTS = Object.freeze({
  /** Smallest relative change of req/s, in percent, that a verdict calls improved or regressed (wall-clock results). */
  thresholdPercent: 5,
  /**
   * The same for instruction counts (--measure instructions), above the spread of two counts of the same code
   * (harness/bench/instruction-compare-detects-a-slowdown.js; its figures are in docs/measuring.md, "Instruction counts").
   */
  instructionThresholdPercent: 1,
  /** Significance level of the tests; the confidence intervals are at 1 − alpha (95%). */
  alpha: 0.05,
  format: 'table'
})

/** Output formats of `dyno compare --format`. */
export const COMPARE_FORMATS = /** @type {const} */ (['table', 'md', 'json', 'bmf', 'gab', 'gab-p99', 'gab-instructions'])

/** What `--fail-on` may name: a significant regression beyond the threshold, a row that could not be compared. */
export const FAIL_ON_CONDITIONS = /** @type {const} */ (['regression', 'not-comparable'])

/** The version of the `--format json` document (harness/schema/compare.schema.json). */
export const COMPARE_SCHEMA_VERSION = 2

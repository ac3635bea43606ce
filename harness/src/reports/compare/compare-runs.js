// @ts-check
// Two sides read and compared, without output: the figures, for the commands and tools that act on them.
import { buildComparison } from './build-comparison.js'
import { COMPARE_DEFAULTS } from './compare-defaults.js'
import { readCompareInputs } from './read-inputs.js'

/**
 * Reads both sides and compares them (no output): for callers that want the figures, such as
 * `compare-commits`.
 * @param {string[]} baselinePaths run directories, directories of runs, run.json or result files
 * @param {string[]} candidatePaths
 * @param {{ thresholdPercent: number | null, paired: boolean }} settings thresholdPercent null: the default of what the sides measured
 *   (req/s: one fixed threshold; instruction counts: each row's own A/A spread); paired: the sides were run in alternating rounds,
 *   pair each cell's runs in the order they started
 * @returns {import('../../records/comparison-record.js').Comparison}
 */
export function compareRuns (baselinePaths, candidatePaths, { thresholdPercent, paired }) {
  const sides = readCompareInputs(baselinePaths, candidatePaths)
  return buildComparison(sides, {
    thresholdPercent,
    alpha: COMPARE_DEFAULTS.alpha,
    paired
  })
}

// @ts-check
// A comparison of two sides, cell by cell (compare-cell.js), with its settings and a count of each kind of row; and the rows that make
// `--fail-on` fail.
import { COMPARE_SCHEMA_VERSION } from './compare-defaults.js'
import { metricOf } from '../../records/comparison-record.js'
import { measureNamed } from '../../measures/index.js'
import { compareCell } from './compare-cell.js'
import { matchResults } from './match-results.js'

/**
 * @typedef {import('../../records/comparison-record.js').ComparisonRow} ComparisonRow
 * @typedef {import('../../records/comparison-record.js').Comparison} Comparison
 * @typedef {import('../../records/comparison-record.js').SideSummary} SideSummary
 * @typedef {import('./read-inputs.js').Side} Side
 * @typedef {import('../../measures/comparison-spec.js').ComparisonSpec} ComparisonSpec
 */

/**
 * Compares two sides cell by cell, as their measure says (measures/comparison-spec.js): the metrics it reads, how they pair, the threshold.
 * @param {{ baseline: Side, candidate: Side }} sides
 * @param {{ thresholdPercent: number | null, alpha: number, paired?: boolean }} settings thresholdPercent: as given, or null for the
 *   measure's default (one fixed threshold, or each row's own A/A spread); paired: both sides were run in alternating rounds, so each
 *   cell's runs pair up in the order they started
 * @returns {Comparison}
 */
export function buildComparison ({ baseline, candidate }, { thresholdPercent: given, alpha, paired = false }) {
  const spec = baseline.measure.comparison
  const pairs = paired || spec.pairsByPosition
  const fixed = 'fixedPercent' in spec.threshold ? spec.threshold.fixedPercent : null
  const thresholdPercent = given ?? fixed
  const thresholdFloorPercent = given === null && 'floorPercent' in spec.threshold ? spec.threshold.floorPercent : null
  const matched = matchResults(baseline, candidate)
  const rows = matched.map((cell) => compareCell(cell, { spec, given, alpha, paired: pairs, seeds: [baseline.seed, candidate.seed] }))
  const count = (/** @type {(row: ComparisonRow) => boolean} */ test) => rows.filter(test).length
  const regressed = (/** @type {ComparisonRow} */ row, /** @type {string} */ metric) => metricOf(row, metric)?.verdict === 'regressed'
  return {
    schemaVersion: COMPARE_SCHEMA_VERSION,
    baseline: sideSummary(baseline),
    candidate: sideSummary(candidate),
    settings: {
      measure: baseline.measure.name,
      thresholdPercent,
      thresholdFloorPercent,
      alpha,
      paired: pairs,
      test: pairs ? 'wilcoxon-signed-rank' : 'mann-whitney-u',
      interval: 'hodges-lehmann',
      verdictMetric: spec.primary
    },
    rows,
    summary: {
      improved: count((row) => row.verdict === 'improved'),
      regressed: count((row) => row.verdict === 'regressed'),
      unchanged: count((row) => row.verdict === 'unchanged'),
      tooFewRepeats: count((row) => row.status === 'too-few-repeats'),
      notComparable: count((row) => row.status === 'not-comparable'),
      syscallsRegressed: count((row) => regressed(row, 'writesPerRequest') || regressed(row, 'readsPerRequest')),
      allocationRegressed: count((row) => regressed(row, 'allocatedBytesPerRequest')),
      disturbed: matched.filter((cell) => [...cell.baseline, ...cell.candidate].some(({ record }) => record.interference?.disturbed)).length
    }
  }
}

/** @param {Side} side @returns {SideSummary} */
function sideSummary (side) {
  return { paths: side.paths, runIds: side.runIds, commits: side.commits, resultSchemaVersion: side.schemaVersion }
}

/**
 * The rows that make `--fail-on` fail.
 * @param {Comparison} comparison
 * @param {readonly string[]} failOn `regression`, `not-comparable`
 * @returns {ComparisonRow[]}
 */
export function failingRows (comparison, failOn) {
  const spec = measureNamed(comparison.settings.measure).comparison
  return comparison.rows.filter((row) => (failOn.includes('regression') && regressedMetrics(row, spec).length > 0) ||
    (failOn.includes('not-comparable') && row.status === 'not-comparable'))
}

/**
 * @param {ComparisonRow} row @param {ComparisonSpec} spec the row's measure's
 * @returns {string[]} what regressed in the row: its primary metric (the row's verdict) and those its measure fails on besides
 */
export function regressedMetrics (row, spec) {
  return [
    ...(row.verdict === 'regressed' ? [spec.metrics[row.verdictMetric].label] : []),
    ...spec.failing.filter((metric) => metricOf(row, metric)?.verdict === 'regressed').map((metric) => spec.metrics[metric].label)
  ]
}

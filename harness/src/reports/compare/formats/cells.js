// @ts-check
import { measureNamed } from '../../../measures/index.js'
import { primaryFigures, signedPercent } from '../../../measures/comparison-cells.js'
import { metricOf } from '../../../records/comparison-record.js'
import { failingRows } from '../build-comparison.js'
import { rowExplanationText } from '../../explain/row-explanation.js'

/**
 * How the human formats (table, markdown) write the figures of a comparison, in one place.
 * @typedef {import('../../../records/comparison-record.js').ComparisonRow} ComparisonRow
 * @typedef {import('../../../records/comparison-record.js').MetricRow} MetricRow
 * @typedef {import('../../../records/comparison-record.js').Comparison} Comparison
 */

/**
 * The columns of a comparison's table, as its measure writes them: a header and how each row fills it.
 * @param {Comparison} comparison
 * @returns {import('../../../measures/comparison-spec.js').Columns}
 */
export const comparisonColumns = (comparison) => measureNamed(comparison.settings.measure).comparison.columns(comparison)

/**
 * @param {ComparisonRow} row
 * @returns {string} `node-http × json (100 connections)`; a count's row has no connections of its own (a count sends over its
 *   own few, whatever the run's level)
 */
export const rowName = (row) =>
  `${row.sut} × ${row.scenario}${row.requestsPerSec || !row.instructionsPerRequest ? ` (${row.connections} connections)` : ''}`

/** @param {ComparisonRow} row @returns {string[]} the reason and the notes of a row, for under the table */
export const rowRemarks = (row) => [row.reason, ...row.notes, row.why ? rowExplanationText(row.why) : null]
  .filter((text) => text !== null).map((text) => `${rowName(row)}: ${text}`)

/**
 * @param {Comparison['baseline']} side
 * @returns {string} where a side came from: its paths, run ids and commits
 */
export function sideLine (side) {
  const commits = side.commits.map((entry) => entry.commit
    ? `${entry.commit.slice(0, 12)}${entry.dirty ? ' (with uncommitted changes)' : ''}`
    : 'commit unknown')
  const runs = side.runIds.length > 2
    ? `${side.runIds.length} runs, ${side.runIds[0]} … ${side.runIds.at(-1)}`
    : `run${side.runIds.length > 1 ? 's' : ''} ${side.runIds.join(', ')}`
  return `${side.paths.join(', ')} (${runs}; ${commits.join(', ')})`
}

/** @param {Comparison} comparison @returns {string} the verdict counts and how they were reached */
export function summaryLine (comparison) {
  const { summary, settings } = comparison
  const counts = [
    `${summary.regressed} regressed`,
    `${summary.improved} improved`,
    `${summary.unchanged} unchanged`,
    ...(summary.tooFewRepeats ? [`${summary.tooFewRepeats} with too few repeats for a test`] : []),
    ...(summary.notComparable ? [`${summary.notComparable} not comparable`] : []),
    ...(summary.disturbed ? [`${summary.disturbed} resting on disturbed runs`] : [])
  ]
  const spec = measureNamed(settings.measure).comparison
  const test = spec.testText(settings)
  const threshold =
    settings.thresholdPercent === null
      ? "a change of at least the row's threshold: its own A/A spread (the band that holds 95% of the changes two counts of " +
        'the same code ' +
        'give, from the spread of the row\'s per-window ratios, which a real change shifts but does not widen), never below ' +
          `${settings.thresholdFloorPercent}%`
      : `a change of at least ${settings.thresholdPercent}%`
  const allocation = summary.allocationRegressed
    ? ` Allocation regressed in ${summary.allocationRegressed} row${summary.allocationRegressed > 1 ? 's' : ''}.`
    : ''
  return `Verdicts on ${spec.verdictsOn}: ` +
    `${counts.join(', ')}.${allocation} A verdict needs p < ${settings.alpha} (${test}) ` +
    `and ${threshold}; the change is the Hodges–Lehmann estimate of candidate / baseline with its 95% interval.`
}

/**
 * @param {ComparisonRow} row a row that regressed @param {import('../../../measures/comparison-spec.js').ComparisonSpec} spec its measure's
 * @returns {string} what regressed, by how much: `regressed +3.4% (instructions per request), +100.0% (write system calls per request)`
 */
export function regressionText (row, spec) {
  const changes = [
    ...(row.verdict === 'regressed' ? [[primaryFigures(row), spec.metrics[row.verdictMetric]?.label ?? row.verdictMetric]] : []),
    ...spec.failing
      .filter((metric) => metricOf(row, metric)?.verdict === 'regressed')
      .map((metric) => [metricOf(row, metric), spec.metrics[metric].label])
  ]
  const changeOf = (/** @type {unknown[]} */ [figures, what]) =>
    `${signedPercent(/** @type {MetricRow} */ (figures).changePercent ?? 0)} (${what})`
  return `regressed ${changes.map(changeOf).join(', ')}`
}

/**
 * The tables a comparison has under its own, as its measure writes them, each with the sentence under it.
 * @param {Comparison} comparison
 * @returns {import('../../../measures/comparison-spec.js').SecondaryTable[]}
 */
export const secondaryTables = (comparison) => measureNamed(comparison.settings.measure).comparison.secondaryTables(comparison)

/**
 * What made `--fail-on` fail: each failing row with what regressed in it, or that it could not be compared; null: none failed.
 * @param {Comparison} comparison @param {readonly string[]} failOn
 * @returns {string | null} `--fail-on regression: express × json (100 connections) regressed -9.1% (req/s)`
 */
export function failureText (comparison, failOn) {
  const failing = failingRows(comparison, failOn)
  if (failing.length === 0) return null
  const spec = measureNamed(comparison.settings.measure).comparison
  return `--fail-on ${failOn.join(',')}: ${failing.map((row) =>
    `${rowName(row)} ${row.status === 'not-comparable' ? 'is not comparable' : regressionText(row, spec)}`).join('; ')}`
}

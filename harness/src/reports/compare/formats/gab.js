// @ts-check
import { benchmarkName } from './bmf.js'
import { changeCell, pValueCell } from '../../../measures/comparison-cells.js'
import { measureNamed } from '../../../measures/index.js'
import { roundToFixed } from '../../../platform/util/numbers.js'

/**
 * @typedef {{ name: string, unit: string, value: number, range?: string, extra?: string }} GabEntry
 *   one entry of github-action-benchmark's custom JSON (an array of these)
 * @typedef {import('../../../records/comparison-record.js').ComparisonRow} ComparisonRow
 * @typedef {import('../../../records/comparison-record.js').MetricRow} MetricRow
 * @typedef {import('../../../measures/comparison-spec.js').GabFormat} GabFormat
 */

/**
 * The candidate's figures as github-action-benchmark's custom JSON, in one of the formats the results' measure declares (the
 * action reads one direction per file, its `tool` input: `gab` is req/s for customBiggerIsBetter, `gab-p99` the p99 in ms for
 * customSmallerIsBetter, …). `range` is ± half the 95% bootstrap interval of the median; `extra` carries the comparison with the
 * baseline (change, interval, p, verdict). Cells whose candidate has no valid measurement are left out.
 * @param {import('../../../records/comparison-record.js').Comparison} comparison
 * @param {GabFormat} format
 * @returns {string}
 */
export function formatCompareGab (comparison, format) {
  const { valueUnit } = measureNamed(comparison.settings.measure).comparison
  /** @type {GabEntry[]} */
  const entries = []
  for (const row of comparison.rows) {
    const { figures, suffix } = format.entry(row)
    const candidate = figures?.candidate
    if (!figures || !candidate) continue
    entries.push({
      name: `${benchmarkName(row)}${suffix}`,
      unit: format.unit,
      value: roundToFixed(candidate.median * format.scale, 3),
      ...(candidate.ci95 ? { range: `± ${roundToFixed((candidate.ci95[1] - candidate.ci95[0]) / 2 * format.scale, 3)}` } : {}),
      extra: extra(row, figures, format, valueUnit)
    })
  }
  return JSON.stringify(entries, null, 2)
}

/**
 * @param {ComparisonRow} row @param {MetricRow} figures @param {GabFormat} format
 * @param {'window' | 'run'} valueUnit what one of the figures' values is
 * @returns {string} e.g. `vs baseline 10,412 req/s: -9.1% [-11.0%, -7.2%], p = 0.008 (Mann–Whitney U, 5 and 5 runs): regressed`
 */
function extra (row, figures, format, valueUnit) {
  const baseline = figures.baseline
  const baselineText = baseline ? `${format.format(baseline.median * format.scale)} ${format.unit}` : 'none'
  const runs = valueUnit === 'window'
    ? `${figures.baseline?.runs.length ?? 0} and ${figures.candidate?.runs.length ?? 0} counted windows`
    : `${row.files.baseline.length} and ${row.files.candidate.length} runs`
  if (row.status === 'not-comparable') return `vs baseline ${baselineText}: not comparable: ${row.reason}`
  if (row.status === 'too-few-repeats') {
    return `vs baseline ${baselineText}: ${changeCell(figures)} (point change only: ${runs} are too few for a test)`
  }
  const test =
    figures.test?.name === 'wilcoxon-signed-rank' ? `Wilcoxon signed-rank, ${figures.test.pairs} pairs` : `Mann–Whitney U, ${runs}`
  return `vs baseline ${baselineText}: ${changeCell(figures)}, p = ${pValueCell(figures)} (${test}): ${figures.verdict}`
}

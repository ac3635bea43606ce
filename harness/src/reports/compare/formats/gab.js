// @ts-check
import { formatInteger, formatMs } from '../../../platform/text/format.js'
import { benchmarkName } from './bmf.js'
import { changeCell, pValueCell, primaryFigures } from '../../../measures/comparison-cells.js'
import { roundToFixed } from '../../../platform/util/numbers.js'

/** @typedef {'requestsPerSec' | 'p99Us' | 'instructionsPerRequest'} GabMetric */
/** How each metric is written: its name suffix, unit, and scale from the comparison's unit. */
const GAB_METRICS = {
  requestsPerSec: { suffix: '', unit: 'req/s', scale: 1 },
  p99Us: { suffix: ' p99', unit: 'ms', scale: 1 / 1000 },
  instructionsPerRequest: { suffix: ' instructions', unit: 'instructions/req', scale: 1 }
}

/**
 * @typedef {{ name: string, unit: string, value: number, range?: string, extra?: string }} GabEntry
 *   one entry of github-action-benchmark's custom JSON (an array of these)
 * @typedef {import('../../../records/comparison-record.js').ComparisonRow} ComparisonRow
 * @typedef {import('../../../records/comparison-record.js').MetricRow} MetricRow
 */

/**
 * The candidate's figures as github-action-benchmark's custom JSON. The action reads one direction
 * per file (its `tool` input), so there are three formats: `gab` is req/s for `tool:
 * customBiggerIsBetter`, `gab-p99` the p99 latency in ms and `gab-instructions` the instructions per request
 * for `tool: customSmallerIsBetter` (the program's, `… program instructions`, where the count split the collector's apart). `range`
 * is ± half the 95% bootstrap interval of the median; `extra` carries the comparison with the
 * baseline (change, interval, p, verdict). Cells whose candidate has no valid measurement are left out.
 * @param {import('../../../records/comparison-record.js').Comparison} comparison
 * @param {GabMetric} metric
 * @returns {string}
 */
export function formatCompareGab (comparison, metric) {
  /** @type {GabEntry[]} */
  const entries = []
  for (const row of comparison.rows) {
    // A count's entry is what its verdict is on: the program's instructions (a series of its own), or all of them.
    const figures = metric === 'instructionsPerRequest' ? primaryFigures(row) : row[metric]
    const candidate = figures?.candidate
    if (!figures || !candidate) continue
    const { suffix, unit, scale } = GAB_METRICS[metric]
    const program = metric === 'instructionsPerRequest' && row.verdictMetric === 'programInstructionsPerRequest'
    entries.push({
      name: `${benchmarkName(row)}${program ? ' program' : ''}${suffix}`,
      unit,
      value: roundToFixed(candidate.median * scale, 3),
      ...(candidate.ci95 ? { range: `± ${roundToFixed((candidate.ci95[1] - candidate.ci95[0]) / 2 * scale, 3)}` } : {}),
      extra: extra(row, figures, metric)
    })
  }
  return JSON.stringify(entries, null, 2)
}

/**
 * @param {ComparisonRow} row @param {MetricRow} figures @param {GabMetric} metric
 * @returns {string} e.g. `vs baseline 10,412 req/s: -9.1% [-11.0%, -7.2%], p = 0.008 (Mann–Whitney U, 5 and 5 runs): regressed`
 */
function extra (row, figures, metric) {
  const baseline = figures.baseline
  const baselineText = baseline
    ? (metric === 'p99Us' ? `${formatMs(baseline.median / 1000)} ms` : `${formatInteger(baseline.median)} ${GAB_METRICS[metric].unit}`)
    : 'none'
  const runs = metric === 'instructionsPerRequest'
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

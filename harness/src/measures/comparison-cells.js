// @ts-check
// How the human formats of a comparison (table, markdown) write one figure of a row, for every measure's columns.
import { formatInteger, formatMs } from '../platform/text/format.js'

/**
 * @typedef {import('../records/comparison-record.js').ComparisonRow} ComparisonRow
 * @typedef {import('../records/comparison-record.js').MetricRow} MetricRow
 */

/** @param {number} percent @returns {string} e.g. `+3.2%`, `-10.0%` */
export const signedPercent = (percent) => `${percent > 0 ? '+' : ''}${percent.toFixed(1)}%`

/** @param {MetricRow | null} metric @returns {string} `-4.0% [-7.7%, -0.5%]`, the point change alone, or `-` */
export function changeCell (metric) {
  if (!metric || metric.changePercent === null) return '-'
  const interval = metric.ci95Percent ? ` [${signedPercent(metric.ci95Percent[0])}, ${signedPercent(metric.ci95Percent[1])}]` : ''
  return `${signedPercent(metric.changePercent)}${interval}`
}

/** @param {MetricRow | null} metric */
export function pValueCell (metric) {
  if (!metric?.test) return '-'
  return metric.test.pValue < 0.001 ? '<0.001' : metric.test.pValue.toFixed(3)
}

/** @param {MetricRow | null} metric @param {'baseline' | 'candidate'} side */
export const rateCell = (metric, side) => formatInteger(metric?.[side]?.median)

/** @param {MetricRow | null} metric @param {'baseline' | 'candidate'} side */
export const p99Cell = (metric, side) => {
  const us = metric?.[side]?.median
  return us === undefined || us === null ? '-' : formatMs(us / 1000)
}

/** @param {MetricRow | null | undefined} metric @param {'baseline' | 'candidate'} side @returns {string} µs to 3 digits, `38.2` */
export const costCell = (metric, side) => {
  const us = metric?.[side]?.median
  return us === undefined || us === null ? '-' : us >= 100 ? String(Math.round(us)) : us >= 10 ? us.toFixed(1) : us.toFixed(2)
}

/** @param {ComparisonRow} row @returns {string} runs of each side, `5/5` */
export const runsCell = (row) => `${row.files.baseline.length}/${row.files.candidate.length}`

/** @param {ComparisonRow} row @returns {string} counted windows of each side, `6/6` */
export const windowsCell = (row) => `${primaryFigures(row)?.baseline?.runs.length ?? 0}/${primaryFigures(row)?.candidate?.runs.length ?? 0}`

/** @param {ComparisonRow} row @returns {string} the threshold of the row's verdict, `0.64%`, `0.50% (floor)`, or `-` */
export function thresholdCell (row) {
  const threshold = primaryFigures(row)?.threshold
  if (!threshold) return '-'
  return `${threshold.percent.toFixed(2)}%${threshold.from === 'floor' ? ' (floor)' : threshold.from === 'given' ? ' (given)' : ''}`
}

/** @param {ComparisonRow} row @returns {MetricRow | null} the row's figures of the metric its verdict is on */
export const primaryFigures = (row) =>
  row[row.verdictMetric ?? (row.instructionsPerRequest ? 'instructionsPerRequest' : 'requestsPerSec')] ?? null

/** @param {ComparisonRow} row */
export function verdictCell (row) {
  if (row.status === 'not-comparable') return 'not comparable'
  if (row.status === 'too-few-repeats') return 'point change only'
  return /** @type {string} */ (row.verdict)
}

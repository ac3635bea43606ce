// @ts-check
// An overview's cells and legend as text, for report.md, the README and report.html: a figure in full with its rank group and marks
// (`45,123 (1–2) †`), the status of a cell without a figure, and the legend of the marks a table uses.
import { formatInteger } from '../platform/text/format.js'
import { markdownCell } from '../platform/text/markdown-cell.js'
import { costText } from './overview-cost.js'

/**
 * @param {import('./overview.js').OverviewCell | null} cell
 * @returns {string} `45,123 (1–2) † · 38.2 µs 97%`, ranked on cost `45,123 † · 38.2 µs 97% (1–2)`; the status without a figure; ''
 *   where the run has no result
 */
export function overviewCellText (cell) {
  if (!cell) return ''
  if (cell.value === null) return cell.status
  const group = cell.group ? ` (${cell.group})` : ''
  // A rank group made on the cost stands beside the cost.
  return `${formatInteger(cell.value)}${cell.rankedOnCost ? '' : group}${cell.marks.length > 0 ? ` ${cell.marks.join('')}` : ''}` +
    (cell.cost ? ` · ${costText(cell.cost)}${cell.rankedOnCost ? group : ''}` : '')
}

/**
 * The marks the overview's cells carry, each with its meaning (only those used).
 * @param {import('./overview.js').Overview} overview
 * @returns {import('./overview.js').OverviewMark[]}
 */
export function usedMarks (overview) {
  const used = new Set(overview.rows.flatMap((row) => row.cells.flatMap((cell) => cell?.marks ?? [])))
  return overview.marks.filter((mark) => used.has(mark.mark))
}

/** Whether any cell has no figure (skipped, failed, invalid). @param {import('./overview.js').Overview} overview */
export const hasUnmeasured = (overview) => overview.rows.some((row) => row.cells.some((cell) => cell !== null && cell.value === null))

/** What a cell without a figure means, for the legends. */
export const UNMEASURED_NOTE = '`skipped`, `failed`, `invalid`: no figure; the warnings and report.md say why'

/**
 * The overview as a markdown table with its legend (the caller makes the document inert: platform/util/inert-markdown.js).
 * @param {import('./overview.js').Overview} overview
 * @returns {string[]}
 */
export function overviewMarkdown (overview) {
  const marks = usedMarks(overview)
  return [
    `| framework | version | ${overview.columns.map(markdownCell).join(' | ')} |`,
    `|---|---|${overview.columns.map(() => '---:|').join('')}`,
    ...overview.rows.map((row) => `| ${markdownCell(row.framework)} | ${markdownCell(row.version)} | ` +
      `${row.cells.map((cell) => markdownCell(overviewCellText(cell))).join(' | ')} |`),
    '',
    [overview.groups, overview.order, ...(overview.costNote ? [`${overview.costNote}.`] : []),
      ...marks.map((mark) => `${mark.mark} ${mark.meaning}.`),
      ...(hasUnmeasured(overview) ? [`${UNMEASURED_NOTE}.`] : [])].join(' '),
    ...overview.caveats.flatMap((caveat) => ['', `**${caveat}.**`])
  ]
}

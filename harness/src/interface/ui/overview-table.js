// @ts-check
// The overview (measures/overview.js) as the last thing `dyno run` prints: as many columns as the terminal's width holds (80 when it
// does not say), figures abbreviated (`45.1k`) with their rank group and marks, each abbreviation explained once under the table, the
// columns left out named; coloured by each column's scale when the output is a terminal that takes colour. The cpu cost of a request
// is a table of its own under it, in the same rows and columns.
import { usedMarks, hasUnmeasured } from '../../measures/overview-text.js'
import { costText } from '../../measures/overview-cost.js'

/** The width when the output is not a terminal that says its own. */
export const DEFAULT_WIDTH = 80
/** The widest framework column; a longer name is cut with `…`. */
const NAME_WIDTH_MAX = 20
/** The widest a column grows for its name alone. */
const HEADER_WIDTH = 9
/** Between two columns. */
const GAP = '  '
/** Short forms of the statuses of cells without a figure. */
const STATUS_SHORT = /** @type {Readonly<Record<string, string>>} */ (Object.freeze({ skipped: 'skip', failed: 'fail', invalid: 'inv' }))
/** ANSI colours of a column's scale, worst to best: red, yellow, green. */
const SCALE_COLOURS = ['\u001b[31m', '\u001b[33m', '\u001b[32m']
const RESET = '\u001b[0m'

/** @param {number} value @returns {string} `950`, `12.3k`, `123k`, `1.23M` */
export function compactFigure (value) {
  const cut = (/** @type {number} */ scaled, /** @type {string} */ unit) =>
    `${scaled >= 100 ? Math.round(scaled) : scaled >= 10 ? scaled.toFixed(1) : scaled.toFixed(2)}${unit}`
  if (value >= 999_500) return cut(value / 1_000_000, 'M')
  if (value >= 1000) return cut(value / 1000, 'k')
  return String(Math.round(value))
}

/** @param {import('../../measures/overview.js').OverviewCell | null} cell */
function cellText (cell) {
  if (!cell) return ''
  if (cell.value === null) return Object.hasOwn(STATUS_SHORT, cell.status) ? STATUS_SHORT[cell.status] : cell.status
  return `${compactFigure(cell.value)}${cell.group && !cell.rankedOnCost ? ` ${cell.group}` : ''}${cell.marks.join('')}`
}

/**
 * @param {import('../../measures/overview.js').OverviewCell | null} cell a figure without a cost: `-`; a cell ranked on cost has its rank
 *   group after the cost
 */
const costCellText = (cell) => cell?.cost
  ? `${costText(cell.cost)}${cell.rankedOnCost && cell.group ? ` ${cell.group}` : ''}`
  : cell?.value !== null && cell?.value !== undefined ? '-' : cellText(cell)

/** @param {string} text @param {number} width @returns {string} the text cut to the width with `…` */
const cut = (text, width) => text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`

/**
 * Words wrapped to a width, each line after the first indented.
 * @param {string} text @param {number} width @param {string} indent
 */
function wrap (text, width, indent) {
  const lines = ['']
  // A unit stays with its figure (`15 %`).
  const words = text.split(' ').reduce((kept, word) => word === '%' && kept.length > 0
    ? [...kept.slice(0, -1), `${kept[kept.length - 1]} %`]
    : [...kept, word], /** @type {string[]} */ ([]))
  for (const word of words) {
    const line = lines[lines.length - 1]
    if (line.length > 0 && line.length + 1 + word.length > width) lines.push(`${indent}${word}`)
    else lines[lines.length - 1] = line.length === 0 ? word : `${line} ${word}`
  }
  return lines
}

/**
 * A table of the overview's rows: the framework and as many columns as fit the width, in the contract's order.
 * @param {import('../../measures/overview.js').Overview} overview
 * @param {{ corner: string, texts: string[][], width: number, paint: (text: string, shade: number | null | undefined) => string }} table
 *   corner: the first column's header; texts: each row's cells
 */
function drawTable (overview, { corner, texts, width, paint }) {
  const nameWidth = Math.min(NAME_WIDTH_MAX, Math.max(corner.length, ...overview.rows.map((row) => row.framework.length)))
  // As wide as its widest cell, and as its name up to HEADER_WIDTH (a longer name is cut, and explained under the table).
  const columnWidths = overview.columns.map((name, column) =>
    Math.max(Math.min(name.length, HEADER_WIDTH), ...texts.map((cells) => cells[column].length)))
  const shown = []
  let used = nameWidth
  for (const [column, columnWidth] of columnWidths.entries()) {
    if (used + GAP.length + columnWidth > width) break
    shown.push(column)
    used += GAP.length + columnWidth
  }
  /** @type {string[]} */
  const abbreviations = []
  const headers = shown.map((column) => {
    const name = overview.columns[column]
    if (name.length <= columnWidths[column]) return name.padStart(columnWidths[column])
    abbreviations.push(`${cut(name, columnWidths[column])} ${name}`)
    return cut(name, columnWidths[column])
  })
  const lines = [
    [corner.padEnd(nameWidth), ...headers].join(GAP),
    ...overview.rows.map((row, at) => [cut(row.framework, nameWidth).padEnd(nameWidth),
      ...shown.map((column) => paint(texts[at][column].padStart(columnWidths[column]), row.cells[column]?.shade))].join(GAP))
  ]
  return { lines, abbreviations, left: overview.columns.filter((_, column) => !shown.includes(column)) }
}

/**
 * @param {import('../../measures/overview.js').Overview} overview
 * @param {{ width?: number, colour?: boolean }} [options] width: the terminal's columns (DEFAULT_WIDTH when not given); colour: ANSI
 *   colours of each column's scale
 * @returns {string} the table, the cpu cost of a request under it where the overview has one, their legend, and the columns left out, no
 *   line wider than the width
 */
export function formatOverview (overview, { width = DEFAULT_WIDTH, colour = false } = {}) {
  /** @param {string} text @param {number | null | undefined} shade */
  const paint = (text, shade) => !colour || shade === null || shade === undefined
    ? text
    : `${SCALE_COLOURS[Math.min(SCALE_COLOURS.length - 1, Math.floor(shade * SCALE_COLOURS.length))]}${text}${RESET}`
  const main = drawTable(overview, { corner: 'framework', texts: overview.rows.map((row) => row.cells.map(cellText)), width, paint })
  // The cost of a request in a table of its own under req/s, its rows in the same order, so that both keep the terminal's width.
  const costs = overview.costNote
    ? drawTable(overview, {
      corner: 'cpu µs/req',
      texts: overview.rows.map((row) => row.cells.map(costCellText)),
      width,
      paint: (text) => text
    })
    : null
  const left = main.left
  const unmeasured = hasUnmeasured(overview)
  const grouped = overview.rows.some((row) => row.cells.some((cell) => cell?.group))
  const abbreviations = [...new Set([...main.abbreviations, ...costs?.abbreviations ?? []])]
  const legend = [
    `${overview.unit} (k thousand, M million)${grouped
      ? overview.rankedOn
        ? `; ranked on ${overview.rankedOn}: rank group after the cpu µs/req (2–4: anywhere from 2nd to 4th in its column)`
        : ', rank group after it (2–4: anywhere from 2nd to 4th in its column)'
      : '; one round per cell, no rank groups (--repeats 2 or more gives them)'}; ${overview.order.replace(/^Frameworks /, 'frameworks ')}`,
    ...(overview.costNote ? [overview.costNote.replace(/^Beside req\/s/, 'cpu µs/req')] : []),
    ...usedMarks(overview).map((mark) => `${mark.mark} ${mark.meaning}`),
    ...(unmeasured ? ['skip, fail, inv: skipped, failed, invalid (the warnings say why)'] : []),
    ...(abbreviations.length > 0 ? [`columns cut: ${abbreviations.join(', ')}`] : []),
    ...(colour ? ['colour: each column\'s scale, green its best, red its worst'] : []),
    ...(left.length > 0 ? [`not shown (${width} columns): ${left.join(', ')}; a wider terminal or report.md shows them`] : [])
  ]
  const caveats = overview.caveats.map((caveat) => caveat.replace(/`/g, ''))
  return [...main.lines, ...(costs ? ['', ...costs.lines] : []), '', ...[...legend, ...caveats].flatMap((line) => wrap(line, width, '  '))]
    .join('\n')
}

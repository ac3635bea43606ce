// @ts-check
// The run at a glance: one table of frameworks × scenarios, which opens report.md and report.html and ends `dyno run`'s output. A measure
// builds it from its results (measure.report.overview); the terminal, report.md, report.html and the README draw it as it is. Each column
// has its own scale: a cell's shade is its place between the worst and the best figure of its column, on a logarithmic scale.

/**
 * @typedef {object} OverviewCell one framework in one column
 * @property {number | null} value the figure (null: none, the status says why)
 * @property {string} status `ok`, or what the cell's results were when none was ok (`skipped`, `failed`, `invalid`)
 * @property {string | null} group its rank group in its column (`2–4`); null without rank groups (one round) or without a figure
 * @property {number | null} shade its place on its column's scale: 0 the worst figure of the column, 1 the best; null without a figure
 * @property {string[]} marks the marks of OverviewMark it carries, in the order of the overview's marks
 * @property {OverviewCost | null} [cost] what a request cost the framework in cpu, shown beside the figure (wall-clock); absent or null:
 *   not read
 * @property {boolean} [rankedOnCost] its rank group (and shade) is of the cost, and is written beside it; absent: of the figure
 *
 * @typedef {object} OverviewCost a cell's cpu cost per request
 * @property {number} cpuUsPerRequest µs of the SUT's cpu per response
 * @property {number | null} sutCpuSharePct the share of the cpus it was given that it used, in %
 * @property {boolean} marked the SUT was not cpu-bound there, so the cost says something else (costNote)
 *
 * @typedef {object} OverviewRow
 * @property {string} framework
 * @property {string} version
 * @property {(OverviewCell | null)[]} cells one per column; null where the run has no result of it
 *
 * @typedef {object} OverviewMark
 * @property {string} mark one character, after a cell's figure
 * @property {string} meaning what it means, in a few words
 *
 * @typedef {object} Overview
 * @property {string} unit what a figure is: `req/s`
 * @property {'higher' | 'lower'} better which way a figure is better
 * @property {string | null} [rankedOn] the figure the rank groups are on where it is not the unit (`cpu µs/request, lower first`);
 *   absent or null: the unit
 * @property {string[]} columns the scenarios (with their connection level when the run swept several), in the contract's order
 * @property {OverviewRow[]} rows best first (see order)
 * @property {OverviewMark[]} marks every mark a cell may carry
 * @property {string} order how the rows are ordered, in a sentence
 * @property {string} groups what a rank group is and how it was made, or why there is none, in a sentence
 * @property {string | null} [costNote] what the cost beside each figure is and what its mark means, in a sentence; absent or null: the
 *   overview shows no cost
 * @property {string[]} caveats what the run cannot tell, a line each, said under the table wherever it is shown (none: nothing to say)
 */

/**
 * The shade of each figure of a column: its place between the column's worst (0) and best (1) figure on a log scale (a column of one
 * figure, or of equal ones, is all best).
 * @param {(number | null)[]} values one column's figures @param {'higher' | 'lower'} better
 * @returns {(number | null)[]}
 */
export function columnShades (values, better) {
  const logs = values.map((value) => value !== null && value > 0 ? Math.log(value) : null)
  const present = /** @type {number[]} */ (logs.filter((value) => value !== null))
  if (present.length === 0) return values.map(() => null)
  const low = Math.min(...present)
  const high = Math.max(...present)
  return logs.map((log) => {
    if (log === null) return null
    if (high === low) return 1
    const place = (log - low) / (high - low)
    return Math.round((better === 'higher' ? place : 1 - place) * 1000) / 1000
  })
}

/**
 * Rows best first: by the geometric mean of each framework's shares of its columns' best figures (a framework measured in fewer
 * columns is judged on those it has), then by name.
 * @param {OverviewRow[]} rows @param {'higher' | 'lower'} better
 * @param {(cell: OverviewCell) => number | null} [figureOf] the figure a cell is ordered by (its value when not given)
 * @returns {OverviewRow[]}
 */
export function bestFirst (rows, better, figureOf = (cell) => cell.value) {
  const columns = rows[0]?.cells.length ?? 0
  const valueOf = (/** @type {OverviewCell | null} */ cell) => cell ? figureOf(cell) : null
  const best = Array.from({ length: columns }, (_, column) => {
    const values = /** @type {number[]} */ (rows.map((row) => valueOf(row.cells[column]))
      .filter((value) => value !== null && value > 0))
    return values.length === 0 ? null : better === 'higher' ? Math.max(...values) : Math.min(...values)
  })
  const score = (/** @type {OverviewRow} */ row) => {
    const shares = row.cells.flatMap((cell, column) => {
      const top = best[column]
      const value = valueOf(cell)
      if (value === null || value <= 0 || top === null) return []
      return [Math.log(better === 'higher' ? value / top : top / value)]
    })
    return shares.length === 0 ? -Infinity : shares.reduce((sum, share) => sum + share, 0) / shares.length
  }
  const scores = new Map(rows.map((row) => [row, score(row)]))
  return [...rows].sort((a, b) => (scores.get(b) ?? 0) - (scores.get(a) ?? 0) || a.framework.localeCompare(b.framework))
}

/** How bestFirst orders the rows, for an overview's `order`. */
export const BEST_FIRST_ORDER = 'best first overall (the geometric mean of each one\'s shares of its columns\' best figures)'

// @ts-check
// The comparison as a pull request's comment: the markdown of `--format md` with the rows that need a reader first (regressed, then
// those with no verdict, then improved, then unchanged, each group in the comparison's order), under a marker by which the action
// finds and replaces its own earlier comment instead of adding one per push.
import { formatCompareMarkdown } from './markdown.js'

/** The first line of every comment dyno writes: the action updates the comment that starts with it. */
export const COMMENT_MARKER = '<!-- dyno compare -->'

/** Where a row's verdict puts it, lower first: a row with no verdict (not comparable) comes after the regressed ones. */
const VERDICT_ORDER = { regressed: 0, none: 1, improved: 2, unchanged: 3 }

/**
 * @param {import('../../../records/comparison-record.js').Comparison} comparison
 * @returns {string}
 */
export function formatCompareComment (comparison) {
  /** @param {{ verdict: import('../../../judging/verdict.js').Verdict | null }} row */
  const place = (row) => VERDICT_ORDER[row.verdict ?? 'none']
  const rows = comparison.rows.map((row, index) => ({ row, index }))
    .sort((a, b) => place(a.row) - place(b.row) || a.index - b.index)
    .map(({ row }) => row)
  return `${COMMENT_MARKER}\n${formatCompareMarkdown({ ...comparison, rows })}`
}

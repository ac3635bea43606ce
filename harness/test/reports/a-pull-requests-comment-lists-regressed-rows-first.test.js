// @ts-check
// `--format comment`, the table the action comments on a pull request: the markdown of `--format md` under dyno's marker, with the
// rows a reviewer must read first: regressed, then those with no verdict, then improved, then unchanged, each group in its order.
import { describe, expect, it } from 'vitest'
import { compareRuns } from '../../src/reports/compare/compare-runs.js'
import { COMMENT_MARKER, formatCompareComment } from '../../src/reports/compare/formats/comment.js'
import { formatCompareMarkdown } from '../../src/reports/compare/formats/markdown.js'
import { FOUR_REPEATS, runWithFigures } from '../support/compare-inputs.js'

const baseline = runWithFigures(FOUR_REPEATS, { requestsPerSec: [10_000, 10_100, 9_900, 10_050], p99Ms: [2.0, 2.1, 1.9, 2.05] })
const candidate = runWithFigures(FOUR_REPEATS, { requestsPerSec: [9_000, 9_090, 8_910, 9_045], p99Ms: [2.4, 2.5, 2.3, 2.45] })

describe('the comment format', () => {
  it('is the markdown table under the marker, regressed rows first and the rest in their order', () => {
    const comparison = compareRuns([baseline], [candidate], { thresholdPercent: 5, paired: false })
    const [row] = comparison.rows
    expect(row.verdict).toBe('regressed')
    /** @type {[string, import('../../src/judging/verdict.js').Verdict | null][]} */
    const verdicts = [['a-same', 'unchanged'], ['b-faster', 'improved'], ['c-slower', 'regressed'], ['d-lost', null],
      ['e-same', 'unchanged'], ['f-slower', 'regressed']]
    const lost = { status: /** @type {const} */ ('too-few-repeats'), reason: 'one round' }
    const rows = verdicts.map(([scenario, verdict]) => ({ ...row, scenario, verdict, ...(verdict === null ? lost : {}) }))
    const text = formatCompareComment({ ...comparison, rows })
    expect(text.startsWith(`${COMMENT_MARKER}\n## dyno compare\n`)).toBe(true)
    const order = [...text.matchAll(/^\| node-http \| ([a-f]-\w+) \|/gm)].map((match) => match[1])
    expect(order).toEqual(['c-slower', 'f-slower', 'd-lost', 'b-faster', 'a-same', 'e-same'])
    // Nothing else differs from --format md: the same table, its rows in another order.
    const ordered = order.map((scenario) => /** @type {typeof row} */ (rows.find((one) => one.scenario === scenario)))
    const markdown = formatCompareMarkdown({ ...comparison, rows: ordered })
    expect(text).toBe(`${COMMENT_MARKER}\n${markdown}`)
  })
})

// @ts-check
import { comparisonColumns, rowRemarks, secondaryTables, sideLine, summaryLine } from './cells.js'
import { inertMarkdown } from '../../../platform/util/inert-markdown.js'
import { WARMUP_NOTE, warmupEntries } from './warmup-section.js'

/** @param {string} text a table cell: no pipes, no line breaks */
const cell = (text) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ')

/** @param {string} text a list item: no line breaks */
const oneLine = (text) => text.replace(/\s*\n\s*/g, ' ')

/**
 * @param {string} text taken from data (a function's name, a position)
 * @returns {string} a code span that holds it as it is: fenced by one backtick more than its longest run of them (CommonMark)
 */
function codeSpan (text) {
  const line = oneLine(text)
  const fence = '`'.repeat(Math.max(0, ...[...line.matchAll(/`+/g)].map(([run]) => run.length)) + 1)
  const pad = line.startsWith('`') || line.endsWith('`') ? ' ' : ''
  return `${fence}${pad}${line}${pad}${fence}`
}

/**
 * The comparison as GitHub-flavoured markdown (a pull request comment, a job summary): the two
 * sides, one table row per (SUT, scenario, connections) with the verdict in bold when it is not
 * `unchanged`, the reasons and notes, the cells whose warm-up changed or whose level changed with what their runtime did
 * differently, and how the verdicts were reached.
 * @param {import('../../../records/comparison-record.js').Comparison} comparison
 * @returns {string}
 */
export function formatCompareMarkdown (comparison) {
  const { summary } = comparison
  const warmupChanged = comparison.rows.filter((row) => row.warmup?.changed).length
  const headline = [
    summary.regressed > 0
      ? `**${summary.regressed} significant regression${summary.regressed > 1 ? 's' : ''}** beyond ` +
        `${comparison.settings.thresholdPercent === null ? "its row's threshold" : `${comparison.settings.thresholdPercent}%`}`
      : 'no significant regression',
    ...(summary.improved > 0 ? [`${summary.improved} improved`] : []),
    ...(summary.tooFewRepeats > 0 ? [`${summary.tooFewRepeats} with too few repeats for a test`] : []),
    ...(summary.notComparable > 0 ? [`**${summary.notComparable} not comparable**`] : []),
    ...(summary.syscallsRegressed > 0
      ? [`**system calls per request regressed in ${summary.syscallsRegressed} row${summary.syscallsRegressed > 1 ? 's' : ''}**`]
      : []),
    ...(summary.disturbed > 0
      ? [`**${summary.disturbed} row${summary.disturbed > 1 ? 's rest' : ' rests'} on disturbed runs** (see the notes)`]
      : []),
    ...(warmupChanged > 0 ? [`${warmupChanged} with a changed warm-up (see Warm-up)`] : [])
  ].join('; ')
  const columns = comparisonColumns(comparison)
  const lines = [
    '## dyno compare',
    '',
    headline,
    '',
    `- baseline: ${cell(sideLine(comparison.baseline))}`,
    `- candidate: ${cell(sideLine(comparison.candidate))}`,
    '',
    `| ${columns.head.join(' | ')} |`,
    `|${columns.head.map((_, index) => columns.alignRight.includes(index) ? '---:' : '---').join('|')}|`
  ]
  for (const row of comparison.rows) {
    const cells = columns.cells(row).map(cell)
    if (row.verdict === 'regressed' || row.verdict === 'improved') cells[cells.length - 1] = `**${cells.at(-1)}**`
    lines.push(`| ${cells.join(' | ')} |`)
  }
  for (const { columns: secondary, note } of secondaryTables(comparison)) {
    const rule = secondary.head.map((_, index) => secondary.alignRight.includes(index) ? '---:' : '---').join('|')
    lines.push('', `| ${secondary.head.join(' | ')} |`, `|${rule}|`)
    for (const row of secondary.rows) {
      lines.push(
        `| ${secondary
          .cells(row)
          .map(cell)
          .map((text) => (text === 'regressed' || text === 'improved' ? `**${text}**` : text))
          .join(' | ')} |`
      )
    }
    lines.push('', note)
  }
  const remarks = comparison.rows.flatMap(rowRemarks)
  if (remarks.length > 0) lines.push('', ...remarks.map((remark) => `- ${cell(remark)}`))
  const warmup = warmupEntries(comparison, { code: codeSpan })
  if (warmup.length > 0) {
    lines.push('', '### Warm-up', '', `${WARMUP_NOTE[0].toUpperCase()}${WARMUP_NOTE.slice(1)}.`, '')
    for (const { line, runtime } of warmup) {
      lines.push(`- ${oneLine(line)}`)
      if (runtime) lines.push(`  - ${oneLine(runtime.heading)}`, ...runtime.items.map((item) => `    - ${oneLine(item)}`))
    }
  }
  lines.push('', summaryLine(comparison), '')
  return inertMarkdown(lines.join('\n'))
}

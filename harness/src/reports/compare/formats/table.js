// @ts-check
import { createTable } from '../../../platform/text/table.js'
import { comparisonColumns, rowRemarks, secondaryTables, sideLine, summaryLine } from './cells.js'
import { WARMUP_NOTE, warmupEntries } from './warmup-section.js'

/**
 * The comparison as a terminal table: one row per (SUT, scenario, connections), then the reason of
 * every row that was not compared and the notes, the cells whose warm-up changed or whose level changed with what their runtime
 * did differently, then the verdict counts.
 * @param {import('../../../records/comparison-record.js').Comparison} comparison
 * @returns {string}
 */
export function formatCompareTable (comparison) {
  const columns = comparisonColumns(comparison)
  const table = createTable(columns.head, { alignRight: columns.alignRight })
  for (const row of comparison.rows) table.push(columns.cells(row))
  const under = secondaryTables(comparison).flatMap(({ columns: secondary, note }) => {
    const secondaryTable = createTable(secondary.head, { alignRight: secondary.alignRight })
    for (const row of secondary.rows) secondaryTable.push(secondary.cells(row))
    return [secondaryTable.toString(), note]
  })
  const warmup = warmupEntries(comparison, { code: (text) => text })
  return [
    `baseline:  ${sideLine(comparison.baseline)}`,
    `candidate: ${sideLine(comparison.candidate)}`,
    table.toString(),
    ...under,
    ...comparison.rows.flatMap(rowRemarks),
    ...(warmup.length > 0
      ? [`Warm-up, ${WARMUP_NOTE}:`, ...warmup.flatMap(({ line, runtime }) => [
          `  ${line}`,
          ...(runtime ? [`    ${runtime.heading}`, ...runtime.items.map((item) => `      ${item}`)] : [])
        ])]
      : []),
    summaryLine(comparison)
  ].join('\n')
}

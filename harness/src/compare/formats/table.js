// @ts-check
import { createTable } from '../../ui/table.js'
import { comparisonColumns, rowRemarks, secondaryTables, sideLine, summaryLine } from './cells.js'

/**
 * The comparison as a terminal table: one row per (SUT, scenario, connections), then the reason of
 * every row that was not compared and the notes, then the verdict counts.
 * @param {import('../build-comparison.js').Comparison} comparison
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
  return [
    `baseline:  ${sideLine(comparison.baseline)}`,
    `candidate: ${sideLine(comparison.candidate)}`,
    table.toString(),
    ...under,
    ...comparison.rows.flatMap(rowRemarks),
    summaryLine(comparison)
  ].join('\n')
}

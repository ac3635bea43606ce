// @ts-check
import { createTable } from '../../ui/table.js'
import { comparisonColumns, rowRemarks, sideLine, summaryLine, syscallColumns, SYSCALLS_NOTE } from './cells.js'

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
  const syscalls = syscallColumns(comparison)
  const syscallTable = syscalls && createTable(syscalls.head, { alignRight: syscalls.alignRight })
  for (const row of syscalls?.rows ?? []) syscallTable?.push(syscalls?.cells(row) ?? [])
  return [
    `baseline:  ${sideLine(comparison.baseline)}`,
    `candidate: ${sideLine(comparison.candidate)}`,
    table.toString(),
    ...(syscallTable ? [syscallTable.toString(), SYSCALLS_NOTE] : []),
    ...comparison.rows.flatMap(rowRemarks),
    summaryLine(comparison)
  ].join('\n')
}

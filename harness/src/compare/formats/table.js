// @ts-check
import { createTable } from '../../ui/table.js'
import { changeCell, p99Cell, pValueCell, rateCell, rowRemarks, runsCell, sideLine, summaryLine, verdictCell } from './cells.js'

/**
 * The comparison as a terminal table: one row per (SUT, scenario, connections), then the reason of
 * every row that was not compared and the notes, then the verdict counts.
 * @param {import('../build-comparison.js').Comparison} comparison
 * @returns {string}
 */
export function formatCompareTable (comparison) {
  const head = ['framework', 'scenario', 'conns', 'runs', 'base req/s', 'cand req/s', 'change (95% CI)', 'p', 'base p99 ms', 'cand p99 ms', 'p99 change', 'verdict']
  const table = createTable(head, { alignRight: [2, 3, 4, 5, 6, 7, 8, 9, 10] })
  for (const row of comparison.rows) {
    table.push([
      row.sut,
      row.scenario,
      String(row.connections),
      runsCell(row),
      rateCell(row.requestsPerSec, 'baseline'),
      rateCell(row.requestsPerSec, 'candidate'),
      changeCell(row.requestsPerSec),
      pValueCell(row.requestsPerSec),
      p99Cell(row.p99Us, 'baseline'),
      p99Cell(row.p99Us, 'candidate'),
      changeCell(row.p99Us),
      verdictCell(row)
    ])
  }
  return [
    `baseline:  ${sideLine(comparison.baseline)}`,
    `candidate: ${sideLine(comparison.candidate)}`,
    table.toString(),
    ...comparison.rows.flatMap(rowRemarks),
    summaryLine(comparison)
  ].join('\n')
}

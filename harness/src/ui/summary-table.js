// @ts-check
import { formatInteger, formatMs } from './format.js'
import { createTable } from './table.js'

/**
 * The table printed at the end of a run: one row per (SUT, scenario), then the reason of every run
 * that is not ok.
 * @param {import('../results/result-record.js').ResultRecord[]} records
 * @returns {string}
 */
export function formatSummaryTable (records) {
  const table = createTable(['framework', 'version', 'scenario', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx', 'status'], { alignRight: [3, 4, 5, 6, 7] })
  for (const record of records) {
    const summary = record.summary
    table.push([
      record.sut.name,
      record.sut.frameworkVersion ?? '-',
      record.scenario.name,
      formatInteger(summary?.requestsPerSec.mean),
      formatMs(summary?.latencyMs?.p50),
      formatMs(summary?.latencyMs?.p99),
      formatInteger(summary ? summary.errors : null),
      formatInteger(summary ? summary.non2xx : null),
      record.status
    ])
  }
  const reasons = records.filter((record) => record.status !== 'ok')
    .map((record) => `${record.sut.name} × ${record.scenario.name}: ${record.status}: ${record.reason}`)
  return [table.toString(), ...reasons].join('\n')
}

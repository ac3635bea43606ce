// @ts-check
import { formatInteger, formatMs } from './format.js'
import { createTable } from './table.js'

/**
 * The table printed at the end of a run: one row per (SUT, scenario), then the reason of every run
 * that is not ok.
 * @param {import('../results/result-record.js').ResultRecord[]} records
 * @param {{ showConnections?: boolean }} [options] a sweep shows the connections of each row
 * @returns {string}
 */
export function formatSummaryTable (records, { showConnections = false } = {}) {
  const head = ['framework', 'version', 'scenario', ...(showConnections ? ['conns'] : []), 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx', 'status']
  const numeric = ['conns', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx']
  const table = createTable(head, { alignRight: head.flatMap((name, index) => numeric.includes(name) ? [index] : []) })
  for (const record of records) {
    const summary = record.summary
    table.push([
      record.sut.label,
      record.sut.frameworkVersion ?? '-',
      record.scenario.name,
      ...(showConnections ? [String(record.load.connections)] : []),
      formatInteger(summary?.requestsPerSec.mean),
      formatMs(summary?.latencyMs?.p50),
      formatMs(summary?.latencyMs?.p99),
      formatInteger(summary ? summary.errors : null),
      formatInteger(summary ? summary.non2xx : null),
      record.summary?.generatorBound ? `${record.status} (generator-bound!)` : record.status
    ])
  }
  const bound = records.filter((record) => record.summary?.generatorBound)
  const warnings = bound.length === 0
    ? []
    : [`WARNING: ${bound.length} run${bound.length > 1 ? 's were' : ' was'} generator-bound (the load generator used ≥ 90% of its CPU): ` +
      `${bound.map((record) => `${record.sut.label} × ${record.scenario.name}`).join(', ')}. These numbers measure the load generator, not the framework.`]
  const reasons = records.filter((record) => record.status !== 'ok')
    .map((record) => `${record.sut.label} × ${record.scenario.name}: ${record.status}: ${record.reason}`)
  return [table.toString(), ...warnings, ...reasons].join('\n')
}

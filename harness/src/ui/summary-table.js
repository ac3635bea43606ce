// @ts-check
import { GENERATOR_BOUND_RULE } from '../resources/resource-defaults.js'
import { formatInteger, formatMs } from './format.js'
import { createTable } from './table.js'

/**
 * What a record's status says about its engine: the native engine, the fastest here, at its limit (‡: this machine's limit),
 * or another engine generator-bound.
 * @param {import('../results/result-record.js').ResultRecord} record
 */
export function engineNote (record) {
  if (record.summary?.generatorBound !== true) return null
  return record.load.engine === 'native' ? 'limit of this machine‡' : 'generator-bound!'
}

/**
 * The table printed at the end of a run: one row per (SUT, scenario), then the reason of every run
 * that is not ok.
 * @param {import('../results/result-record.js').ResultRecord[]} records
 * @param {{ showConnections?: boolean }} [options] a sweep shows the connections of each row
 * @returns {string}
 */
export function formatSummaryTable (records, { showConnections = false } = {}) {
  const counted = records.some((record) => record.instructions)
  const head = [
    'framework', 'version', 'scenario', ...(showConnections ? ['conns'] : []), ...(counted ? ['instructions/req'] : []),
    'req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx', 'status'
  ]
  const numeric = ['conns', 'instructions/req', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx']
  const table = createTable(head, { alignRight: head.flatMap((name, index) => numeric.includes(name) ? [index] : []) })
  for (const record of records) {
    const summary = record.summary
    table.push([
      record.sut.label,
      record.sut.frameworkVersion ?? '-',
      record.scenario.name,
      ...(showConnections ? [String(record.load.connections)] : []),
      ...(counted ? [record.instructions?.windows.length ? formatInteger(record.instructions.instructionsPerRequest) : '-'] : []),
      formatInteger(summary?.requestsPerSec.mean),
      formatMs(summary?.latencyMs?.p50),
      formatMs(summary?.latencyMs?.p99),
      formatInteger(summary ? summary.errors : null),
      formatInteger(summary ? summary.non2xx : null),
      engineNote(record) ? `${record.status} (${engineNote(record)})` : record.status
    ])
  }
  const cells = (/** @type {import('../results/result-record.js').ResultRecord[]} */ list) =>
    list.map((record) => `${record.sut.label} × ${record.scenario.name}`).join(', ')
  const bound = records.filter((record) => record.summary?.generatorBound && record.load.engine !== 'native')
  const atLimit = records.filter((record) => record.summary?.generatorBound && record.load.engine === 'native')
  const warnings = [
    ...(bound.length === 0
      ? []
      : [`WARNING: ${bound.length} run${bound.length > 1 ? 's were' : ' was'} generator-bound (${GENERATOR_BOUND_RULE}): ${cells(bound)}. ` +
        'These numbers measure the load generator, not the framework.']),
    ...(atLimit.length === 0
      ? []
      : [`‡ ${atLimit.length} run${atLimit.length > 1 ? 's' : ''} reached the limit of this machine: ` +
        `the native engine, the fastest here, was generator-bound (${cells(atLimit)}); the SUT may be faster than this machine can show.`])
  ]
  const reasons = records.filter((record) => record.status !== 'ok')
    .map((record) => `${record.sut.label} × ${record.scenario.name}: ${record.status}: ${record.reason}`)
  return [table.toString(), ...warnings, ...reasons].join('\n')
}

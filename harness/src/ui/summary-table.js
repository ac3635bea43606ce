// @ts-check
import { GENERATOR_BOUND_RULE } from '../resources/resource-defaults.js'
import { formatInteger, formatMs } from './format.js'
import { createTable } from './table.js'

/**
 * What a record's status says about its engine: measured again with the native engine (autocannon's figure
 * beside, †), the native engine at its limit too (‡: this machine's limit), or generator-bound.
 * @param {import('../results/result-record.js').ResultRecord} record
 */
export function engineNote (record) {
  const bound = record.summary?.generatorBound === true
  if (record.load.engine === 'native' && bound) return 'limit of this machine‡'
  if (record.generatorBoundMeasurement) return `native; autocannon ${formatInteger(record.generatorBoundMeasurement.requestsPerSec)}†`
  return bound ? 'generator-bound!' : null
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
  const remeasured = records.filter((record) => record.generatorBoundMeasurement)
  const bound = records.filter((record) => record.summary?.generatorBound && record.load.engine !== 'native')
  const atLimit = records.filter((record) => record.summary?.generatorBound && record.load.engine === 'native')
  const warnings = [
    ...(remeasured.length === 0
      ? []
      : [`${remeasured.length} run${remeasured.length > 1 ? 's were' : ' was'} measured again with the native engine, ` +
        `as autocannon was generator-bound (${GENERATOR_BOUND_RULE}; † its figure): ${cells(remeasured)}.`]),
    ...(bound.length === 0
      ? []
      : [`WARNING: ${bound.length} run${bound.length > 1 ? 's were' : ' was'} generator-bound (${GENERATOR_BOUND_RULE}): ${cells(bound)}. ` +
        'These numbers measure the load generator, not the framework.']),
    ...(atLimit.length === 0
      ? []
      : [`‡ ${atLimit.length} run${atLimit.length > 1 ? 's' : ''} reached the limit of this machine: ` +
        `even the native engine was generator-bound (${cells(atLimit)}); the SUT may be faster than this machine can show.`])
  ]
  const reasons = records.filter((record) => record.status !== 'ok')
    .map((record) => `${record.sut.label} × ${record.scenario.name}: ${record.status}: ${record.reason}`)
  return [table.toString(), ...warnings, ...reasons].join('\n')
}

// @ts-check
import { atMachineLimit } from '../../load/engines/index.js'
import { GENERATOR_BOUND_RULE } from '../../platform/resources/resource-defaults.js'
import { formatInteger, formatMs } from '../../platform/text/format.js'
import { roundTo } from '../../platform/util/numbers.js'
import { createTable } from '../../platform/text/table.js'
import { exchangeOf, protocolText } from '../../records/result-protocol.js'

/**
 * What a record's status says about its engine: the fastest engine here at its limit (‡: this machine's limit), or another
 * engine generator-bound.
 * @param {import('../../records/result-record.js').ResultRecord} record
 */
export function engineNote (record) {
  if (record.summary?.generatorBound !== true) return null
  return atMachineLimit(record) ? 'limit of this machine‡' : 'generator-bound!'
}

/**
 * A count's figures in the table: all instructions per request, the program's (V8's collector's counted apart), the bytes
 * allocated and the system calls per request (writes, reads, polling, other); `-` where a count has none (not counted, a runtime
 * without the split, no strace).
 * @param {import('../../measures/instructions/counts/count-instructions.js').InstructionCount | null | undefined} count
 * @returns {string[]}
 */
function countCells (count) {
  if (!count?.windows.length) return ['-', '-', '-', '-']
  const calls = count.syscalls?.perRequest
  return [formatInteger(count.instructionsPerRequest), formatInteger(count.programInstructionsPerRequest ?? null),
    formatInteger(count.allocation?.bytesPerRequest ?? null),
    calls ? `${roundTo(calls.writes, 2)} / ${roundTo(calls.reads, 2)} / ${roundTo(calls.polling, 2)} / ${roundTo(calls.other, 2)}` : '-']
}

/**
 * The table printed at the end of a run: one row per (SUT, scenario), then the reason of every run
 * that is not ok. A run with scenarios in other protocols than HTTP/1.1 in cleartext shows what each row's connections spoke, and a
 * WebSocket row counts messages (msg/s, latency per message).
 * @param {import('../../records/result-record.js').ResultRecord[]} records
 * @param {{ showConnections?: boolean }} [options] a sweep shows the connections of each row
 * @returns {string}
 */
export function formatSummaryTable (records, { showConnections = false } = {}) {
  const counted = records.some((record) => record.instructions)
  const COUNT_HEAD = ['instructions/req', 'program/req', 'allocated B/req', 'syscalls/req write/read/poll/other']
  const protocols = records.some((record) => record.scenario.protocol !== undefined && record.scenario.protocol !== 'http1')
  // A WebSocket row counts messages and their latency: the heads say so (`msg/s`; with requests beside them, `req/s | msg/s`).
  const exchanges = ['req', 'msg'].filter((exchange) => records.some((record) => exchangeOf(record) === exchange))
  const rate = exchanges.length === 0 ? 'req/s' : exchanges.map((exchange) => `${exchange}/s`).join(' | ')
  const perMessage = exchanges.includes('msg') ? (exchanges.length === 1 ? '/msg' : '/req | msg') : ''
  const head = [
    'framework',
    'version',
    'scenario',
    ...(protocols ? ['protocol'] : []),
    ...(showConnections ? ['conns'] : []),
    ...(counted ? COUNT_HEAD : []),
    rate,
    `p50 ms${perMessage}`,
    `p99 ms${perMessage}`,
    'errors',
    'non-2xx',
    'status'
  ]
  const numeric = ['conns', ...COUNT_HEAD, rate, `p50 ms${perMessage}`, `p99 ms${perMessage}`, 'errors', 'non-2xx']
  const table = createTable(head, { alignRight: head.flatMap((name, index) => numeric.includes(name) ? [index] : []) })
  for (const record of records) {
    const summary = record.summary
    table.push([
      record.sut.label,
      record.sut.frameworkVersion ?? '-',
      record.scenario.name,
      ...(protocols ? [protocolText(record)] : []),
      ...(showConnections ? [String(record.load.connections)] : []),
      ...(counted ? countCells(record.instructions) : []),
      formatInteger(summary?.requestsPerSec.mean),
      formatMs(summary?.latencyMs?.p50),
      formatMs(summary?.latencyMs?.p99),
      formatInteger(summary ? summary.errors : null),
      formatInteger(summary ? summary.non2xx : null),
      statusCell(record)
    ])
  }
  const cells = (/** @type {import('../../records/result-record.js').ResultRecord[]} */ list) =>
    list.map((record) => `${record.sut.label} × ${record.scenario.name}`).join(', ')
  const bound = records.filter((record) => record.summary?.generatorBound && !atMachineLimit(record))
  const atLimit = records.filter(atMachineLimit)
  const warnings = [
    ...(bound.length === 0
      ? []
      : [
          `WARNING: ${bound.length} run${bound.length > 1 ? 's were' : ' was'} generator-bound (${GENERATOR_BOUND_RULE}): ` +
            `${cells(bound)}. ` +
            'These numbers measure the load generator, not the framework.'
        ]),
    ...(atLimit.length === 0
      ? []
      : [
          `‡ ${atLimit.length} run${atLimit.length > 1 ? 's' : ''} reached the limit of this machine: ` +
            `the native engine, the fastest here, was generator-bound (${cells(atLimit)}); the SUT may be faster than this ` +
              'machine can show.'
        ])
  ]
  const reasons = records.filter((record) => record.status !== 'ok')
    .map((record) => `${record.sut.label} × ${record.scenario.name}: ${record.status}: ${record.reason}`)
  const inconsistent = records.filter((record) => record.consistency?.passed === false)
  const consistency =
    inconsistent.length === 0
      ? []
      : [
          inconsistent.length > 1
            ? `INCONSISTENT: ${inconsistent.length} results disagree with themselves:`
            : 'INCONSISTENT: 1 result disagrees with itself:',
          ...inconsistent.map(
            (record) =>
              `  ${record.sut.label} × ${record.scenario.name}: ` +
              (record.consistency?.checks ?? [])
                .filter((check) => !check.passed)
                .map((check) => `${check.name}: ${check.detail}`)
                .join('; ')
          )
        ]
  const disturbed = records.filter((record) => record.interference?.disturbed)
  const remeasured = records.filter((record) => (record.interference?.earlierAttempts.length ?? 0) > 0)
  const disturbance = [
    ...(remeasured.length === 0
      ? []
      : [
          `${remeasured.length} cell${remeasured.length > 1 ? 's were' : ' was'} disturbed and measured again ` +
            `(${remeasured.length - remeasured.filter((record) => record.interference?.disturbed).length} clean the next time)`
        ]),
    ...(disturbed.length === 0
      ? []
      : [
          `DISTURBED: ${disturbed.length > 1 ? `${disturbed.length} results were` : '1 result was'} measured while other processes took ` +
            'more than ' +
            `${disturbed[0].interference?.thresholdPct} % of the SUT's or the generator's cpus; they measure the machine's other work too:`,
          ...disturbed.map((record) => `  ${record.sut.label} × ${record.scenario.name}: ${record.interference?.detail}`)
        ])
  ]
  return [table.toString(), ...warnings, ...disturbance, ...consistency, ...reasons].join('\n')
}

/**
 * @param {import('../../records/result-record.js').ResultRecord} record
 * @returns {string} the status, with what qualifies it: the engine's limit, a consistency check that failed
 */
function statusCell (record) {
  const notes = [
    engineNote(record),
    record.interference?.disturbed ? `disturbed: ${record.interference.worstSharePct} % of its cpus taken` : null,
    record.consistency?.passed === false ? `inconsistent: ${record.consistency.failed.join(', ')}` : null
  ].filter(Boolean)
  return notes.length > 0 ? `${record.status} (${notes.join('; ')})` : record.status
}

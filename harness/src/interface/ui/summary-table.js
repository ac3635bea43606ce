// @ts-check
import { remeasuredCells } from '../../records/remeasured-cells.js'
import { atMachineLimit } from '../../load/engines/index.js'
import { GENERATOR_BOUND_RULE } from '../../platform/resources/resource-defaults.js'
import { formatInteger, formatMs } from '../../platform/text/format.js'
import { roundTo } from '../../platform/util/numbers.js'
import { createTable } from '../../platform/text/table.js'
import { exchangeOf, protocolText } from '../../records/result-protocol.js'

/** @typedef {import('../../records/result-record.js').ResultRecord} ResultRecord */

/**
 * What a record's status says about its engine: the fastest engine here at its limit (‡: this machine's limit), or another
 * engine generator-bound.
 * @param {ResultRecord} record
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

/** The heads of a count's figures, shown where a record of the run was counted. */
const COUNT_HEAD = ['instructions/req', 'program/req', 'allocated B/req', 'syscalls/req write/read/poll/other']

/**
 * The table printed at the end of a run: one row per (SUT, scenario), then the reason of every run
 * that is not ok. A run with scenarios in other protocols than HTTP/1.1 in cleartext shows what each row's connections spoke, and a
 * WebSocket row counts messages (msg/s, latency per message).
 * @param {ResultRecord[]} records
 * @param {{ showConnections?: boolean }} [options] a sweep shows the connections of each row
 * @returns {string}
 */
export function formatSummaryTable (records, { showConnections = false } = {}) {
  const columns = summaryColumns(records, showConnections)
  const table = createTable(columns.head, { alignRight: columns.alignRight })
  for (const record of records) table.push(summaryRow(record, columns))
  return [
    table.toString(),
    ...generatorWarnings(records),
    ...disturbanceLines(records),
    ...inconsistencyLines(records),
    ...notOkReasons(records)
  ].join('\n')
}

/**
 * @typedef {object} SummaryColumns which columns the run's records need, and their heads
 * @property {boolean} counted a record was counted: the count's figures have columns
 * @property {boolean} protocols a record spoke another protocol than HTTP/1.1 in cleartext: a column says what each spoke
 * @property {boolean} showConnections
 * @property {string[]} head
 * @property {number[]} alignRight the numeric columns
 */

/**
 * @param {ResultRecord[]} records @param {boolean} showConnections
 * @returns {SummaryColumns}
 */
function summaryColumns (records, showConnections) {
  const counted = records.some((record) => record.instructions)
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
  return { counted, protocols, showConnections, head, alignRight: head.flatMap((name, index) => numeric.includes(name) ? [index] : []) }
}

/** @param {ResultRecord} record @param {SummaryColumns} columns @returns {string[]} the record's row */
function summaryRow (record, { counted, protocols, showConnections }) {
  const summary = record.summary
  return [
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
  ]
}

/** @param {ResultRecord[]} records @returns {string} the cells they are of: `fastify × json, express × json` */
const cellNames = (records) => records.map((record) => `${record.sut.label} × ${record.scenario.name}`).join(', ')

/**
 * The runs whose load generator was the limit: generator-bound ones, whose figures are the generator's, and those at the limit of
 * this machine, where the fastest engine here was.
 * @param {ResultRecord[]} records @returns {string[]}
 */
function generatorWarnings (records) {
  const bound = records.filter((record) => record.summary?.generatorBound && !atMachineLimit(record))
  const atLimit = records.filter(atMachineLimit)
  return [
    ...(bound.length === 0
      ? []
      : [
          `WARNING: ${bound.length} run${bound.length > 1 ? 's were' : ' was'} generator-bound (${GENERATOR_BOUND_RULE}): ` +
            `${cellNames(bound)}. ` +
            'These numbers measure the load generator, not the framework.'
        ]),
    ...(atLimit.length === 0
      ? []
      : [
          `‡ ${atLimit.length} run${atLimit.length > 1 ? 's' : ''} reached the limit of this machine: ` +
            `the native engine, the fastest here, was generator-bound (${cellNames(atLimit)}); the SUT may be faster than this ` +
              'machine can show.'
        ])
  ]
}

/** @param {ResultRecord[]} records @returns {string[]} each run that is not ok, with its reason */
const notOkReasons = (records) => records.filter((record) => record.status !== 'ok')
  .map((record) => `${record.sut.label} × ${record.scenario.name}: ${record.status}: ${record.reason}`)

/** @param {ResultRecord[]} records @returns {string[]} the results that disagree with themselves, each with the checks it failed */
function inconsistencyLines (records) {
  const inconsistent = records.filter((record) => record.consistency?.passed === false)
  if (inconsistent.length === 0) return []
  return [
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
}

/**
 * The cells other processes disturbed: how many were measured again (and came out clean), and the results that stayed disturbed.
 * @param {ResultRecord[]} records @returns {string[]}
 */
function disturbanceLines (records) {
  const disturbed = records.filter((record) => record.interference?.disturbed)
  const { remeasured, withBlock, clean } = remeasuredCells(records)
  const disturbedFirst = remeasured.length - withBlock
  return [
    ...(remeasured.length === 0
      ? []
      : [
          `${disturbedFirst} cell${disturbedFirst === 1 ? ' was' : 's were'} disturbed and measured again` +
            `${withBlock > 0 ? `, ${withBlock} more with their block` : ''} (${clean} clean the next time)`
        ]),
    ...(disturbed.length === 0
      ? []
      : [
          `DISTURBED: ${disturbed.length > 1 ? `${disturbed.length} results were` : '1 result was'} measured while other processes or ` +
            'the hypervisor took more than ' +
            `${disturbed[0].interference?.thresholdPct} % of the SUT's or the generator's cpus; they measure the machine's other work too:`,
          ...disturbed.map((record) => `  ${record.sut.label} × ${record.scenario.name}: ${record.interference?.detail}`)
        ])
  ]
}

/**
 * @param {ResultRecord} record
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

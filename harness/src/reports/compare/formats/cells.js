// @ts-check
import { formatInteger, formatMs } from '../../../platform/text/format.js'

/**
 * How the human formats (table, markdown) write the figures of a comparison, in one place.
 * @typedef {import('../build-comparison.js').ComparisonRow} ComparisonRow
 * @typedef {import('../build-comparison.js').MetricRow} MetricRow
 * @typedef {import('../build-comparison.js').Comparison} Comparison
 */

/** @param {number} percent @returns {string} e.g. `+3.2%`, `-10.0%` */
export const signedPercent = (percent) => `${percent > 0 ? '+' : ''}${percent.toFixed(1)}%`

/** @param {MetricRow | null} metric @returns {string} `-4.0% [-7.7%, -0.5%]`, the point change alone, or `-` */
export function changeCell (metric) {
  if (!metric || metric.changePercent === null) return '-'
  const interval = metric.ci95Percent ? ` [${signedPercent(metric.ci95Percent[0])}, ${signedPercent(metric.ci95Percent[1])}]` : ''
  return `${signedPercent(metric.changePercent)}${interval}`
}

/** @param {MetricRow | null} metric */
export function pValueCell (metric) {
  if (!metric?.test) return '-'
  return metric.test.pValue < 0.001 ? '<0.001' : metric.test.pValue.toFixed(3)
}

/** @param {MetricRow | null} metric @param {'baseline' | 'candidate'} side */
export const rateCell = (metric, side) => formatInteger(metric?.[side]?.median)

/** @param {MetricRow | null} metric @param {'baseline' | 'candidate'} side */
export const p99Cell = (metric, side) => {
  const us = metric?.[side]?.median
  return us === undefined || us === null ? '-' : formatMs(us / 1000)
}

/** @param {ComparisonRow} row @returns {string} runs of each side, `5/5` */
export const runsCell = (row) => `${row.files.baseline.length}/${row.files.candidate.length}`

/** @param {ComparisonRow} row @returns {string} counted windows of each side, `6/6` */
export const windowsCell = (row) => `${primaryFigures(row)?.baseline?.runs.length ?? 0}/${primaryFigures(row)?.candidate?.runs.length ?? 0}`

/** @param {ComparisonRow} row @returns {string} the threshold of the row's verdict, `0.64%`, `0.50% (floor)`, or `-` */
export function thresholdCell (row) {
  const threshold = primaryFigures(row)?.threshold
  if (!threshold) return '-'
  return `${threshold.percent.toFixed(2)}%${threshold.from === 'floor' ? ' (floor)' : threshold.from === 'given' ? ' (given)' : ''}`
}

/**
 * The columns of a comparison's table, by measure: a header and how each row fills it.
 * @param {Comparison} comparison
 * @returns {{ head: string[], alignRight: number[], cells: (row: ComparisonRow) => string[] }}
 */
export function comparisonColumns (comparison) {
  if (comparison.settings.measure === 'instructions') {
    return {
      head: ['framework', 'scenario', 'windows', 'base instr/req', 'cand instr/req', 'of', 'change (95% CI)', 'p', 'threshold', 'verdict'],
      alignRight: [2, 3, 4, 6, 7, 8],
      cells: (row) => [row.sut, row.scenario, windowsCell(row), rateCell(primaryFigures(row), 'baseline'),
        rateCell(primaryFigures(row), 'candidate'), row.verdictMetric === 'programInstructionsPerRequest' ? 'program' : 'all',
        changeCell(primaryFigures(row)), pValueCell(primaryFigures(row)), thresholdCell(row), verdictCell(row)]
    }
  }
  return {
    head: ['framework', 'scenario', 'conns', 'runs', 'base req/s', 'cand req/s', 'change (95% CI)', 'p', 'base p99 ms', 'cand p99 ms', 'p99 change', 'verdict'],
    alignRight: [2, 3, 4, 5, 6, 7, 8, 9, 10],
    cells: (row) => [row.sut, row.scenario, String(row.connections), runsCell(row),
      rateCell(row.requestsPerSec, 'baseline'), rateCell(row.requestsPerSec, 'candidate'), changeCell(row.requestsPerSec), pValueCell(row.requestsPerSec),
      p99Cell(row.p99Us, 'baseline'), p99Cell(row.p99Us, 'candidate'), changeCell(row.p99Us), verdictCell(row)]
  }
}

/** @param {ComparisonRow} row @returns {MetricRow | null} the row's figures of the metric its verdict is on */
export const primaryFigures = (row) => row[row.verdictMetric ?? (row.instructionsPerRequest ? 'instructionsPerRequest' : 'requestsPerSec')] ?? null

/** @param {ComparisonRow} row */
export function verdictCell (row) {
  if (row.status === 'not-comparable') return 'not comparable'
  if (row.status === 'too-few-repeats') return 'point change only'
  return /** @type {string} */ (row.verdict)
}

/**
 * @param {ComparisonRow} row
 * @returns {string} `node-http × json (100 connections)`; a count's row has no connections of its own (a count sends over its
 *   own few, whatever the run's level)
 */
export const rowName = (row) => `${row.sut} × ${row.scenario}${row.requestsPerSec || !row.instructionsPerRequest ? ` (${row.connections} connections)` : ''}`

/** @param {ComparisonRow} row @returns {string[]} the reason and the notes of a row, for under the table */
export const rowRemarks = (row) => [row.reason, ...row.notes].filter((text) => text !== null).map((text) => `${rowName(row)}: ${text}`)

/**
 * @param {Comparison['baseline']} side
 * @returns {string} where a side came from: its paths, run ids and commits
 */
export function sideLine (side) {
  const commits = side.commits.map((entry) => entry.commit
    ? `${entry.commit.slice(0, 12)}${entry.dirty ? ' (with uncommitted changes)' : ''}`
    : 'commit unknown')
  const runs = side.runIds.length > 2
    ? `${side.runIds.length} runs, ${side.runIds[0]} … ${side.runIds.at(-1)}`
    : `run${side.runIds.length > 1 ? 's' : ''} ${side.runIds.join(', ')}`
  return `${side.paths.join(', ')} (${runs}; ${commits.join(', ')})`
}

/** @param {Comparison} comparison @returns {string} the verdict counts and how they were reached */
export function summaryLine (comparison) {
  const { summary, settings } = comparison
  const counts = [
    `${summary.regressed} regressed`,
    `${summary.improved} improved`,
    `${summary.unchanged} unchanged`,
    ...(summary.tooFewRepeats ? [`${summary.tooFewRepeats} with too few repeats for a test`] : []),
    ...(summary.notComparable ? [`${summary.notComparable} not comparable`] : []),
    ...(summary.disturbed ? [`${summary.disturbed} resting on disturbed runs`] : [])
  ]
  const instructions = settings.measure === 'instructions'
  const test = instructions
    ? 'two-sided Wilcoxon signed-rank over the ratios of the counted windows, paired by position; Mann–Whitney U where a row says it could not pair them'
    : settings.paired
      ? 'two-sided Wilcoxon signed-rank over the per-round ratios of runs made in alternating rounds; Mann–Whitney U where a row says it could not pair them'
      : 'two-sided Mann–Whitney U over the repeats'
  const threshold = settings.thresholdPercent === null
    ? 'a change of at least the row\'s threshold: its own A/A spread (the band that holds 95% of the changes two counts of the same code ' +
      `give, from the spread of the row's per-window ratios, which a real change shifts but does not widen), never below ${settings.thresholdFloorPercent}%`
    : `a change of at least ${settings.thresholdPercent}%`
  const allocation = summary.allocationRegressed
    ? ` Allocation regressed in ${summary.allocationRegressed} row${summary.allocationRegressed > 1 ? 's' : ''}.`
    : ''
  return `Verdicts on ${instructions ? 'the program\'s instructions per request (V8\'s collector counted apart; "all" where a row has no split)' : 'req/s'}: ` +
    `${counts.join(', ')}.${allocation} A verdict needs p < ${settings.alpha} (${test}) ` +
    `and ${threshold}; the change is the Hodges–Lehmann estimate of candidate / baseline with its 95% interval.`
}

/** @param {MetricRow | null | undefined} metric @param {'baseline' | 'candidate'} side @returns {string} a median per request, `1.003` */
const perRequestCell = (metric, side) => {
  const value = metric?.[side]?.median
  return value === undefined || value === null ? '-' : value.toFixed(3)
}

/** @param {MetricRow | null | undefined} metric @returns {string} the metric's verdict, or why there is none */
const metricVerdictCell = (metric) => metric?.verdict ?? (metric ? 'no test' : '-')

/**
 * The system calls per request of a comparison of counts, as a second table: writes and reads with their own verdicts, polling
 * and the rest shown (they follow timing). Null when no row has them (wall clock, or counts made without strace).
 * @param {Comparison} comparison
 * @returns {{ head: string[], alignRight: number[], cells: (row: ComparisonRow) => string[], rows: ComparisonRow[] } | null}
 */
export function syscallColumns (comparison) {
  const rows = comparison.rows.filter((row) => row.writesPerRequest || row.readsPerRequest)
  if (comparison.settings.measure !== 'instructions' || rows.length === 0) return null
  return {
    head: ['framework', 'scenario', 'base writes/req', 'cand writes/req', 'writes change', 'writes verdict', 'base reads/req', 'cand reads/req',
      'reads change', 'reads verdict', 'polling/req (base → cand)', 'other/req (base → cand)'],
    alignRight: [2, 3, 4, 6, 7, 8],
    cells: (row) => [row.sut, row.scenario,
      perRequestCell(row.writesPerRequest, 'baseline'), perRequestCell(row.writesPerRequest, 'candidate'), changeCell(row.writesPerRequest ?? null),
      metricVerdictCell(row.writesPerRequest),
      perRequestCell(row.readsPerRequest, 'baseline'), perRequestCell(row.readsPerRequest, 'candidate'), changeCell(row.readsPerRequest ?? null),
      metricVerdictCell(row.readsPerRequest),
      `${perRequestCell(row.pollingPerRequest, 'baseline')} → ${perRequestCell(row.pollingPerRequest, 'candidate')}`,
      `${perRequestCell(row.otherSyscallsPerRequest, 'baseline')} → ${perRequestCell(row.otherSyscallsPerRequest, 'candidate')}`],
    rows
  }
}

/** The sentence under the table of system calls. */
export const SYSCALLS_NOTE = 'System calls per request, counted by strace on the SUT without valgrind over the same request sequence: writes ' +
  '(write, writev, sendto, sendmsg, …) and reads (read, readv, recvfrom, recvmsg, …) follow the requests and get verdicts like ' +
  'instructions, each with its own threshold; polling and the rest follow timing and are shown only.'

/** What each judged metric is called in a sentence. */
const VERDICT_LABELS = {
  requestsPerSec: 'req/s',
  programInstructionsPerRequest: 'program instructions per request',
  instructionsPerRequest: 'instructions per request',
  allocatedBytesPerRequest: 'bytes allocated per request',
  writesPerRequest: 'write system calls per request',
  readsPerRequest: 'read system calls per request'
}

/**
 * What a comparison of counts shows of V8's collector and of allocation, as a table of its own: allocation with its verdict, the
 * collector's instructions and collections shown. Null when no row has them (wall clock, or counts of runtimes other than Node).
 * @param {Comparison} comparison
 * @returns {{ head: string[], alignRight: number[], cells: (row: ComparisonRow) => string[], rows: ComparisonRow[] } | null}
 */
export function collectorColumns (comparison) {
  const rows = comparison.rows.filter((row) => row.allocatedBytesPerRequest || row.collectorInstructionsPerRequest)
  if (comparison.settings.measure !== 'instructions' || rows.length === 0) return null
  const oneDigit = (/** @type {MetricRow | null | undefined} */ metric, /** @type {'baseline' | 'candidate'} */ side) =>
    typeof metric?.[side]?.median === 'number' ? /** @type {number} */ (metric?.[side]?.median).toFixed(1) : '-'
  return {
    head: ['framework', 'scenario', 'base bytes/req', 'cand bytes/req', 'allocation change', 'allocation verdict',
      'collector instr/req (base → cand)', 'collections/window (base → cand)', 'all instr/req (base → cand)'],
    alignRight: [2, 3, 4],
    cells: (row) => [row.sut, row.scenario,
      oneDigit(row.allocatedBytesPerRequest, 'baseline'), oneDigit(row.allocatedBytesPerRequest, 'candidate'), changeCell(row.allocatedBytesPerRequest ?? null),
      metricVerdictCell(row.allocatedBytesPerRequest),
      `${rateCell(row.collectorInstructionsPerRequest ?? null, 'baseline')} → ${rateCell(row.collectorInstructionsPerRequest ?? null, 'candidate')}`,
      `${oneDigit(row.collectionsPerWindow, 'baseline')} → ${oneDigit(row.collectionsPerWindow, 'candidate')}`,
      `${rateCell(row.instructionsPerRequest ?? null, 'baseline')} → ${rateCell(row.instructionsPerRequest ?? null, 'candidate')}`],
    rows
  }
}

/** The sentence under the table of the collector and allocation. */
export const COLLECTOR_NOTE = 'V8\'s collector, counted apart from the program (its functions\' inclusive cost in callgrind\'s data): where a collection ' +
  'falls moves from launch to launch, so its instructions are shown, not judged. Bytes allocated on V8\'s heap per request, read inside ' +
  'the SUT between windows, follow the request sequence and get a verdict of their own: a change that only adds collector work raises them.'

/**
 * @param {ComparisonRow} row a row that regressed
 * @returns {string} what regressed, by how much: `regressed +3.4% (instructions per request), +100.0% (write system calls per request)`
 */
export function regressionText (row) {
  const changes = [
    ...(row.verdict === 'regressed' ? [[primaryFigures(row), VERDICT_LABELS[row.verdictMetric] ?? 'req/s']] : []),
    ...(/** @type {const} */ (['allocatedBytesPerRequest', 'writesPerRequest', 'readsPerRequest'])).filter((metric) => row[metric]?.verdict === 'regressed')
      .map((metric) => [row[metric], VERDICT_LABELS[metric]])
  ]
  return `regressed ${changes.map(([figures, what]) => `${signedPercent(/** @type {MetricRow} */ (figures).changePercent ?? 0)} (${what})`).join(', ')}`
}

/**
 * The tables a comparison of counts has under its own, each with the sentence under it: the collector and allocation, the system calls.
 * @param {Comparison} comparison
 * @returns {{ columns: NonNullable<ReturnType<typeof syscallColumns>>, note: string }[]}
 */
export function secondaryTables (comparison) {
  return [{ columns: collectorColumns(comparison), note: COLLECTOR_NOTE }, { columns: syscallColumns(comparison), note: SYSCALLS_NOTE }]
    .filter((table) => table.columns !== null)
    .map(({ columns, note }) => ({ columns: /** @type {NonNullable<ReturnType<typeof syscallColumns>>} */ (columns), note }))
}

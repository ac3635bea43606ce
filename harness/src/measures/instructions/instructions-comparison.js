// @ts-check
// What a comparison of instruction counts reads and writes: per counted window, the program's instructions per request (the verdict's; all
// instructions where a count has no collector split), bytes allocated and write and read system calls per request, each with a verdict of
// its own, and the collector's work and the other system calls shown; windows pair by position (both sides answered the same request
// sequence), each row's threshold is its own A/A spread, and counts pinned to different cpu baselines are refused.
import { dirname } from 'node:path'
import { DynoError } from '../../platform/errors.js'
import { formatInteger } from '../../platform/text/format.js'
import { INSTRUCTION_THRESHOLD_FLOOR_PCT } from '../../judging/stats/instruction-threshold.js'
import { cpuBaselineOf, describeCpuBaseline } from '../../records/count-baseline.js'
import { changeCell, pValueCell, primaryFigures, rateCell, thresholdCell, verdictCell, windowsCell } from '../comparison-cells.js'

/**
 * @typedef {import('../../records/result-record.js').ResultRecord} ResultRecord
 * @typedef {import('../../records/comparison-record.js').Comparison} Comparison
 * @typedef {import('../../records/comparison-record.js').ComparisonRow} ComparisonRow
 * @typedef {import('../../records/comparison-record.js').MetricRow} MetricRow
 */

/** @param {(window: NonNullable<ResultRecord['instructions']>['windows'][number]) => number | null | undefined} value */
const perWindow = (value) => (/** @type {ResultRecord} */ record) => record.instructions?.windows.map(value) ?? [null]
/** @param {'writes' | 'reads' | 'polling' | 'other'} kind */
const syscallsPerWindow = (kind) => (/** @type {ResultRecord} */ record) =>
  record.instructions?.syscalls?.windows.map((window) => window.perRequest[kind]) ?? [null]

/** System calls that follow the timing of the requests, not their sequence: shown beside a count, never given a verdict. */
const SHOWN_SYSCALL_METRICS = ['pollingPerRequest', 'otherSyscallsPerRequest']
/** The system calls a count compares, each with its own verdict (count-syscalls.js: the classes a request sequence fixes). */
export const SYSCALL_METRICS = ['writesPerRequest', 'readsPerRequest']
/**
 * What a count compares besides its verdict's metric, each with a verdict of its own: allocation (deterministic, and what a change that
 * only adds collector work raises) and the system calls a request sequence fixes.
 */
const OWN_VERDICT_METRICS = ['allocatedBytesPerRequest', ...SYSCALL_METRICS]

/** @param {MetricRow | null | undefined} metric @param {'baseline' | 'candidate'} side @returns {string} a median per request, `1.003` */
const perRequestCell = (metric, side) => {
  const value = metric?.[side]?.median
  return value === undefined || value === null ? '-' : value.toFixed(3)
}

/** @param {MetricRow | null | undefined} metric @returns {string} the metric's verdict, or why there is none */
const metricVerdictCell = (metric) => metric?.verdict ?? (metric ? 'no test' : '-')

/** The sentence under the table of system calls. */
const SYSCALLS_NOTE = 'System calls per request, counted by strace on the SUT without valgrind over the same request sequence: writes ' +
  '(write, writev, sendto, sendmsg, …) and reads (read, readv, recvfrom, recvmsg, …) follow the requests and get verdicts like ' +
  'instructions, each with its own threshold; polling and the rest follow timing and are shown only.'

/** The sentence under the table of the collector and allocation. */
const COLLECTOR_NOTE = 'V8\'s collector, counted apart from the program (its functions\' inclusive cost in callgrind\'s data): where a ' +
  'collection falls moves from launch to launch, so its instructions are shown, not judged. Bytes allocated on V8\'s heap per request, ' +
  'read inside the SUT between windows, follow the request sequence and get a verdict of their own: a change that only adds collector ' +
  'work raises them.'

/**
 * The system calls per request of a comparison of counts, as a second table: writes and reads with their own verdicts, polling and the rest
 * shown (they follow timing). Null when no row has them (counts made without strace).
 * @param {Comparison} comparison
 */
function syscallColumns (comparison) {
  const rows = comparison.rows.filter((row) => row.writesPerRequest || row.readsPerRequest)
  if (rows.length === 0) return null
  return {
    head: [
      'framework',
      'scenario',
      'base writes/req',
      'cand writes/req',
      'writes change',
      'writes verdict',
      'base reads/req',
      'cand reads/req',
      'reads change',
      'reads verdict',
      'polling/req (base → cand)',
      'other/req (base → cand)'
    ],
    alignRight: [2, 3, 4, 6, 7, 8],
    cells: (/** @type {ComparisonRow} */ row) => [
      row.sut,
      row.scenario,
      perRequestCell(row.writesPerRequest, 'baseline'),
      perRequestCell(row.writesPerRequest, 'candidate'),
      changeCell(row.writesPerRequest ?? null),
      metricVerdictCell(row.writesPerRequest),
      perRequestCell(row.readsPerRequest, 'baseline'),
      perRequestCell(row.readsPerRequest, 'candidate'),
      changeCell(row.readsPerRequest ?? null),
      metricVerdictCell(row.readsPerRequest),
      `${perRequestCell(row.pollingPerRequest, 'baseline')} → ${perRequestCell(row.pollingPerRequest, 'candidate')}`,
      `${perRequestCell(row.otherSyscallsPerRequest, 'baseline')} → ${perRequestCell(row.otherSyscallsPerRequest, 'candidate')}`
    ],
    rows
  }
}

/**
 * What a comparison of counts shows of V8's collector and of allocation, as a table of its own: allocation with its verdict, the
 * collector's instructions and collections shown. Null when no row has them (counts of runtimes other than Node).
 * @param {Comparison} comparison
 */
function collectorColumns (comparison) {
  const rows = comparison.rows.filter((row) => row.allocatedBytesPerRequest || row.collectorInstructionsPerRequest)
  if (rows.length === 0) return null
  const oneDigit = (/** @type {MetricRow | null | undefined} */ metric, /** @type {'baseline' | 'candidate'} */ side) =>
    typeof metric?.[side]?.median === 'number' ? /** @type {number} */ (metric?.[side]?.median).toFixed(1) : '-'
  return {
    head: [
      'framework',
      'scenario',
      'base bytes/req',
      'cand bytes/req',
      'allocation change',
      'allocation verdict',
      'collector instr/req (base → cand)',
      'collections/window (base → cand)',
      'all instr/req (base → cand)'
    ],
    alignRight: [2, 3, 4],
    cells: (/** @type {ComparisonRow} */ row) => [
      row.sut,
      row.scenario,
      oneDigit(row.allocatedBytesPerRequest, 'baseline'),
      oneDigit(row.allocatedBytesPerRequest, 'candidate'),
      changeCell(row.allocatedBytesPerRequest ?? null),
      metricVerdictCell(row.allocatedBytesPerRequest),
      `${rateCell(row.collectorInstructionsPerRequest ?? null, 'baseline')} → ` +
        `${rateCell(row.collectorInstructionsPerRequest ?? null, 'candidate')}`,
      `${oneDigit(row.collectionsPerWindow, 'baseline')} → ${oneDigit(row.collectionsPerWindow, 'candidate')}`,
      `${rateCell(row.instructionsPerRequest ?? null, 'baseline')} → ${rateCell(row.instructionsPerRequest ?? null, 'candidate')}`
    ],
    rows
  }
}

/**
 * Why a row's counts cannot be judged on the program's instructions, or null when every window of every count has them.
 * @param {{ record: ResultRecord, file: string }[]} records both sides' results of the row
 * @returns {string | null}
 */
function countWithoutCollectorSplit (records) {
  const lacking = records.find(({ record }) => record.status === 'ok' &&
    !record.instructions?.windows.every((window) => typeof window.programInstructionsPerRequest === 'number'))
  if (!lacking) return null
  const instructions = lacking.record.instructions
  const why = instructions?.collector && 'reason' in instructions.collector
    ? instructions.collector.reason
    : 'it was counted before dyno split the collector apart'
  return `${lacking.file} has no count of the collector apart (${why})`
}

/**
 * Counts pinned to different cpu baselines (counts/cpu-baseline.js) counted different code: refused, each baseline named with the runs and
 * rows that hold it. A result that holds no count (it failed, or was skipped) has no baseline to tell.
 * @param {{ name: string, records: { record: ResultRecord, file: string }[] }[]} sides
 * @throws {DynoError} DYNO_ERR_COMPARE_CPU_BASELINE
 */
function checkCpuBaselines (sides) {
  /** @type {Map<string, Map<string, Set<string>>>} baseline → `side run directory` → its rows */
  const byBaseline = new Map()
  for (const side of sides) {
    for (const { record, file } of side.records) {
      const name = cpuBaselineOf(record)
      if (name === null) continue
      const runs = byBaseline.get(name) ?? new Map()
      byBaseline.set(name, runs)
      const run = `the ${side.name} ${dirname(file)}`
      runs.set(run, (runs.get(run) ?? new Set()).add(`${record.sut.label ?? record.sut.name} × ${record.scenario.name}`))
    }
  }
  if (byBaseline.size < 2) return
  const described = [...byBaseline].map(([name, runs]) =>
    `${describeCpuBaseline(name)} in ${[...runs].map(([run, rows]) => `${run} (${[...rows].join(', ')})`).join(' and ')}`)
  throw new DynoError('DYNO_ERR_COMPARE_CPU_BASELINE', 'the instruction counts were pinned to different cpu baselines, so they counted ' +
    `different code and are not compared: ${described.join('; ')}`)
}

/** @type {import('../comparison-spec.js').ComparisonSpec} */
export const INSTRUCTIONS_COMPARISON = Object.freeze({
  metrics: {
    instructionsPerRequest: {
      pick: perWindow((window) => window.instructionsPerRequest),
      digits: 0,
      biggerIsBetter: false,
      label: 'instructions per request',
      bmf: { measure: 'instructions', scale: 1 }
    },
    programInstructionsPerRequest: {
      pick: perWindow((window) => window.programInstructionsPerRequest),
      digits: 0,
      biggerIsBetter: false,
      label: 'program instructions per request',
      bmf: { measure: 'program-instructions', scale: 1 }
    },
    collectorInstructionsPerRequest: {
      pick: perWindow((window) => window.collector?.instructionsPerRequest),
      digits: 0,
      biggerIsBetter: false,
      label: 'collector instructions per request'
    },
    collectionsPerWindow: {
      pick: perWindow((window) =>
        window.collector
          ? window.collector.collections.scavenge + window.collector.collections.markCompact + window.collector.collections.minorMarkCompact
          : null
      ),
      digits: 1,
      biggerIsBetter: false,
      label: 'collections per window'
    },
    allocatedBytesPerRequest: {
      pick: perWindow((window) => window.allocatedBytesPerRequest),
      digits: 1,
      biggerIsBetter: false,
      label: 'bytes allocated per request',
      bmf: { measure: 'allocated-bytes', scale: 1 }
    },
    writesPerRequest: {
      pick: syscallsPerWindow('writes'),
      digits: 3,
      biggerIsBetter: false,
      label: 'write system calls per request',
      bmf: { measure: 'write-syscalls', scale: 1 }
    },
    readsPerRequest: {
      pick: syscallsPerWindow('reads'),
      digits: 3,
      biggerIsBetter: false,
      label: 'read system calls per request',
      bmf: { measure: 'read-syscalls', scale: 1 }
    },
    pollingPerRequest: { pick: syscallsPerWindow('polling'), digits: 3, biggerIsBetter: false, label: 'polling system calls per request' },
    otherSyscallsPerRequest: { pick: syscallsPerWindow('other'), digits: 3, biggerIsBetter: false, label: 'other system calls per request' }
  },
  primary: 'programInstructionsPerRequest',
  others: OWN_VERDICT_METRICS,
  failing: OWN_VERDICT_METRICS,
  // The collector's work (where a collection falls moves from launch to launch) and all instructions together (when the verdict is on the
  // program's): shown, never judged.
  shown: ['instructionsPerRequest', 'collectorInstructionsPerRequest', 'collectionsPerWindow', ...SHOWN_SYSCALL_METRICS],
  pairsByPosition: true,
  pairUnit: 'window',
  valueUnit: 'window',
  threshold: { floorPercent: INSTRUCTION_THRESHOLD_FLOOR_PCT },
  warmup: false,
  primaryFallback: countWithoutCollectorSplit,
  fallbackMetric: 'instructionsPerRequest',
  settingsProblem: (records) => {
    const settings = [...new Set(records.map(({ record }) => JSON.stringify(record.instructions?.settings ?? null)))]
    return settings.length > 1 ? `the runtime settings of the instruction counts differ: ${settings.join(' vs ')}` : null
  },
  rowNotes: () => [],
  verdictsOn: 'the program\'s instructions per request (V8\'s collector counted apart; "all" where a row has no split)',
  testText: () =>
    'two-sided Wilcoxon signed-rank over the ratios of the counted windows, paired by position; Mann–Whitney U where a row says ' +
    'it could not pair them',
  columns: () => ({
    head: ['framework', 'scenario', 'windows', 'base instr/req', 'cand instr/req', 'of', 'change (95% CI)', 'p', 'threshold', 'verdict'],
    alignRight: [2, 3, 4, 6, 7, 8],
    cells: (row) => [
      row.sut,
      row.scenario,
      windowsCell(row),
      rateCell(primaryFigures(row), 'baseline'),
      rateCell(primaryFigures(row), 'candidate'),
      row.verdictMetric === 'programInstructionsPerRequest' ? 'program' : 'all',
      changeCell(primaryFigures(row)),
      pValueCell(primaryFigures(row)),
      thresholdCell(row),
      verdictCell(row)
    ]
  }),
  secondaryTables: (comparison) =>
    [
      { columns: collectorColumns(comparison), note: COLLECTOR_NOTE },
      { columns: syscallColumns(comparison), note: SYSCALLS_NOTE }
    ].flatMap(({ columns, note }) => (columns ? [{ columns, note }] : [])),
  gabFormats: {
    // The verdict's figures: the program's instructions (a series of its own), or all of them where a count has no collector split.
    'gab-instructions': {
      entry: (row) => ({
        figures: primaryFigures(row),
        suffix: row.verdictMetric === 'programInstructionsPerRequest' ? ' program instructions' : ' instructions'
      }),
      biggerIsBetter: false,
      unit: 'instructions/req',
      scale: 1,
      format: formatInteger,
      holds: 'instructions per request'
    }
  },
  recordProblem: (record) => {
    const windows = record.instructions?.windows
    return Array.isArray(windows) && windows.length > 0 && windows.every((window) => window?.instructionsPerRequest > 0)
      ? null
      : {
          field: 'instructions.windows',
          expected:
            'a list of counted windows, each with instructionsPerRequest > 0, in an ok instruction count (counts of dyno before the ' +
            'window method cannot be compared)'
        }
  },
  checkSides: checkCpuBaselines
})

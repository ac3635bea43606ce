// @ts-check
import { mean, sampleStandardDeviation } from 'simple-statistics'
import { COMPARE_DEFAULTS, COMPARE_SCHEMA_VERSION } from './compare-defaults.js'
import { metricChange, sideFigures, tooFewRepeatsReason } from './change-statistics.js'
import { instructionThreshold } from '../../judging/stats/instruction-threshold.js'
import { matchResults } from './match-results.js'
import { runtimeDifferences } from './runtime-differences.js'
import { steadyLevelShift } from './steady-level-shift.js'
import { verdictOf } from './verdict.js'
import { warmupChange } from './warmup-change.js'

/**
 * @typedef {import('./verdict.js').Verdict} Verdict
 * @typedef {import('./read-inputs.js').Side} Side
 * @typedef {import('./read-inputs.js').SourcedRecord} SourcedRecord
 * @typedef {import('./change-statistics.js').SideFigures} SideFigures
 *
 * @typedef {object} MetricRow one metric of one row
 * @property {SideFigures | null} baseline null when that side has no usable runs
 * @property {SideFigures | null} candidate
 * @property {number | null} changePercent
 * @property {[number, number] | null} ci95Percent
 * @property {import('./change-statistics.js').ChangeTest | null} test
 * @property {boolean | null} significant
 * @property {RowThreshold | null} threshold the smallest change the verdict calls; null unless the row is compared
 * @property {Verdict | null} verdict null unless the row is compared
 *
 * @typedef {import('../../judging/stats/instruction-threshold.js').RowThreshold} RowThreshold
 *
 * @typedef {object} ComparisonRow one (SUT, scenario, connections)
 * @property {string} sut
 * @property {string} scenario
 * @property {number} connections
 * @property {'compared' | 'too-few-repeats' | 'not-comparable'} status
 * @property {string | null} reason why the row is not compared, or gets the point change only
 * @property {string[]} notes what a reader should know (different durations, …)
 * @property {Verdict | null} verdict the verdict on the primary metric: req/s, or the program's instructions per request (all
 *   instructions where a count has no collector split, said in the notes)
 * @property {'requestsPerSec' | 'programInstructionsPerRequest' | 'instructionsPerRequest'} verdictMetric the metric of `verdict`
 * @property {MetricRow | null} requestsPerSec bigger is better (wall-clock results)
 * @property {MetricRow | null} p99Us 99th percentile latency in µs, smaller is better (wall-clock results)
 * @property {MetricRow | null} [instructionsPerRequest] all instructions, one value per counted window, smaller is better (instruction
 *   counts): shown beside the program's, or the verdict's metric where a count has no collector split
 * @property {MetricRow | null} [programInstructionsPerRequest] the instructions that were not V8's collector's, per window: the verdict's
 * @property {MetricRow | null} [collectorInstructionsPerRequest] the collector's, per window: shown, no verdict
 * @property {MetricRow | null} [collectionsPerWindow] scavenges and mark-compacts per window: shown, no verdict
 * @property {MetricRow | null} [allocatedBytesPerRequest] bytes allocated on V8's heap per request, per window, with its own verdict
 * @property {MetricRow | null} [writesPerRequest] write system calls per request, one value per counted window, smaller is better
 *   (instruction counts with their system calls; null when a side has none)
 * @property {MetricRow | null} [readsPerRequest] read system calls per request, likewise
 * @property {MetricRow | null} [pollingPerRequest] polling system calls per request: shown, no verdict (they follow timing)
 * @property {MetricRow | null} [otherSyscallsPerRequest] every other system call per request: shown, no verdict
 * @property {{ baseline: string[], candidate: string[] }} files the result files of each side
 * @property {import('./warmup-change.js').WarmupChange | null} warmup how the cell warmed up on each side (wall-clock results); null
 *   when a side has no run, or no run of either side was classified (results written before dyno classified warm-up)
 * @property {import('./runtime-differences.js').RuntimeDifferences | null} runtimeDifferences what the runtime did differently, where the
 *   verdict found the level changed (improved or regressed); null elsewhere, or when no run of either side recorded runtime events
 *
 * @typedef {object} Comparison
 * @property {number} schemaVersion
 * @property {SideSummary} baseline
 * @property {SideSummary} candidate
 * @property {{ measure: import('./read-inputs.js').Measure, thresholdPercent: number | null, thresholdFloorPercent: number | null,
 *   alpha: number, paired: boolean, test: 'mann-whitney-u' | 'wilcoxon-signed-rank', interval: 'hodges-lehmann',
 *   verdictMetric: 'requestsPerSec' | 'programInstructionsPerRequest' }} settings
 *   thresholdPercent: the one threshold of every row, null when each row has its own (instruction counts: the row's A/A spread,
 *   never below thresholdFloorPercent); test: the test of every row, except paired rows that could not be paired (said in their
 *   notes); the windows of instruction counts pair by position
 * @property {ComparisonRow[]} rows
 * @property {{ improved: number, regressed: number, unchanged: number, tooFewRepeats: number, notComparable: number,
 *   syscallsRegressed: number, allocationRegressed: number, disturbed: number }} summary syscallsRegressed: rows whose write or read
 *   system calls per request regressed; allocationRegressed: rows whose bytes allocated per request regressed; disturbed: rows that
 *   rest on a run other processes disturbed (judging/disturbance.js), named in their notes
 *
 * @typedef {{ paths: string[], runIds: string[], commits: Side['commits'], resultSchemaVersion: number }} SideSummary
 */

/** Load settings that make two measurements different experiments. */
const LOAD_IDENTITY = /** @type {const} */ (['engine', 'pipelining', 'ratePerSec', 'countWarmupRequests', 'countWindowRequests'])
/** Load settings that may differ, with a note. */
const LOAD_NOTED = /** @type {const} */ (['durationSec', 'warmupSec', 'countWindows'])

/**
 * Compares two sides cell by cell.
 * @param {{ baseline: Side, candidate: Side }} sides
 * @param {{ thresholdPercent: number | null, alpha: number, paired?: boolean }} settings thresholdPercent: as given, or null for the
 *   default of what the sides measured (wall clock: one fixed threshold; instruction counts: each row's own A/A spread); paired: both
 *   sides were run in alternating rounds, so each cell's runs pair up in the order they started
 * @returns {Comparison}
 */
export function buildComparison ({ baseline, candidate }, { thresholdPercent: given, alpha, paired = false }) {
  const measure = baseline.measure
  // A count's windows follow one request sequence, the same on both sides: they pair by position.
  const pairs = paired || measure === 'instructions'
  const perRow = given === null && measure === 'instructions'
  const thresholdPercent = given ?? (perRow ? null : COMPARE_DEFAULTS.thresholdPercent)
  const thresholdFloorPercent = perRow ? COMPARE_DEFAULTS.instructionThresholdFloorPercent : null
  const matched = matchResults(baseline, candidate)
  const rows = matched.map((cell) =>
    compareCell(cell, { measure, given, alpha, paired: pairs, seeds: [baseline.seed, candidate.seed] }))
  const count = (/** @type {(row: ComparisonRow) => boolean} */ test) => rows.filter(test).length
  return {
    schemaVersion: COMPARE_SCHEMA_VERSION,
    baseline: sideSummary(baseline),
    candidate: sideSummary(candidate),
    settings: {
      measure,
      thresholdPercent,
      thresholdFloorPercent,
      alpha,
      paired: pairs,
      test: pairs ? 'wilcoxon-signed-rank' : 'mann-whitney-u',
      interval: 'hodges-lehmann',
      verdictMetric: PRIMARY_METRIC[measure]
    },
    rows,
    summary: {
      improved: count((row) => row.verdict === 'improved'),
      regressed: count((row) => row.verdict === 'regressed'),
      unchanged: count((row) => row.verdict === 'unchanged'),
      tooFewRepeats: count((row) => row.status === 'too-few-repeats'),
      notComparable: count((row) => row.status === 'not-comparable'),
      syscallsRegressed: count((row) => SYSCALL_METRICS.some((metric) => row[metric]?.verdict === 'regressed')),
      allocationRegressed: count((row) => row.allocatedBytesPerRequest?.verdict === 'regressed'),
      disturbed: matched.filter((cell) => [...cell.baseline, ...cell.candidate].some(({ record }) => record.interference?.disturbed)).length
    }
  }
}

/** @param {Side} side @returns {SideSummary} */
function sideSummary (side) {
  return { paths: side.paths, runIds: side.runIds, commits: side.commits, resultSchemaVersion: side.schemaVersion }
}

/**
 * The values of one metric on one side, or why there are none.
 * @param {SourcedRecord[]} records
 * @param {(record: ResultRecord) => (number | null | undefined)[]} pick a record's values
 * @returns {number[] | null} null when a side is missing, has a run that is not ok, or lacks the value
 */
function valuesOf (records, pick) {
  if (records.length === 0 || records.some(({ record }) => record.status !== 'ok')) return null
  const values = records.flatMap(({ record }) => pick(record))
  return values.length > 0 && values.every((value) => typeof value === 'number' && value > 0) ? /** @type {number[]} */ (values) : null
}

/** @typedef {import('../../records/result-record.js').ResultRecord} ResultRecord */
const METRICS = {
  requestsPerSec: {
    pick: (/** @type {ResultRecord} */ record) => [record.summary?.requestsPerSec.mean],
    digits: 1,
    biggerIsBetter: true,
    label: 'req/s'
  },
  p99Us: {
    pick: (/** @type {ResultRecord} */ record) => {
      const ms = record.summary?.latencyMs?.p99
      return [typeof ms === 'number' ? ms * 1000 : null]
    },
    digits: 0,
    biggerIsBetter: false,
    label: 'p99'
  },
  instructionsPerRequest: {
    pick: (/** @type {ResultRecord} */ record) => record.instructions?.windows.map((window) => window.instructionsPerRequest) ?? [null],
    digits: 0,
    biggerIsBetter: false,
    label: 'instructions per request'
  },
  programInstructionsPerRequest: {
    pick: (/** @type {ResultRecord} */ record) => record.instructions?.windows.map((window) => window.programInstructionsPerRequest) ?? [null],
    digits: 0,
    biggerIsBetter: false,
    label: 'program instructions per request'
  },
  collectorInstructionsPerRequest: {
    pick: (/** @type {ResultRecord} */ record) => record.instructions?.windows.map((window) => window.collector?.instructionsPerRequest) ?? [null],
    digits: 0,
    biggerIsBetter: false,
    label: 'collector instructions per request'
  },
  collectionsPerWindow: {
    pick: (/** @type {ResultRecord} */ record) => record.instructions?.windows.map((window) => window.collector
      ? window.collector.collections.scavenge + window.collector.collections.markCompact + window.collector.collections.minorMarkCompact
      : null) ?? [null],
    digits: 1,
    biggerIsBetter: false,
    label: 'collections per window'
  },
  allocatedBytesPerRequest: {
    pick: (/** @type {ResultRecord} */ record) => record.instructions?.windows.map((window) => window.allocatedBytesPerRequest) ?? [null],
    digits: 1,
    biggerIsBetter: false,
    label: 'bytes allocated per request'
  },
  writesPerRequest: {
    pick: (/** @type {ResultRecord} */ record) => record.instructions?.syscalls?.windows.map((window) => window.perRequest.writes) ?? [null],
    digits: 3,
    biggerIsBetter: false,
    label: 'write system calls per request'
  },
  readsPerRequest: {
    pick: (/** @type {ResultRecord} */ record) => record.instructions?.syscalls?.windows.map((window) => window.perRequest.reads) ?? [null],
    digits: 3,
    biggerIsBetter: false,
    label: 'read system calls per request'
  },
  pollingPerRequest: {
    pick: (/** @type {ResultRecord} */ record) => record.instructions?.syscalls?.windows.map((window) => window.perRequest.polling) ?? [null],
    digits: 3,
    biggerIsBetter: false,
    label: 'polling system calls per request'
  },
  otherSyscallsPerRequest: {
    pick: (/** @type {ResultRecord} */ record) => record.instructions?.syscalls?.windows.map((window) => window.perRequest.other) ?? [null],
    digits: 3,
    biggerIsBetter: false,
    label: 'other system calls per request'
  }
}

/** System calls that follow the timing of the requests, not their sequence: shown beside a count, never given a verdict. */
export const SHOWN_SYSCALL_METRICS = /** @type {const} */ (['pollingPerRequest', 'otherSyscallsPerRequest'])

/** The system calls a count compares, each with its own verdict (count-syscalls.js: the classes a request sequence fixes). */
export const SYSCALL_METRICS = /** @type {const} */ (['writesPerRequest', 'readsPerRequest'])

/**
 * What a count compares besides its verdict's metric, each with a verdict of its own: allocation (deterministic, and what a change
 * that only adds collector work raises) and the system calls a request sequence fixes.
 */
export const OWN_VERDICT_METRICS = /** @type {const} */ (['allocatedBytesPerRequest', ...SYSCALL_METRICS])
/**
 * What a count shows beside its verdicts, never judged: the collector's work (where a collection falls moves from launch to launch) and
 * all instructions together (when the verdict is on the program's).
 */
const SHOWN_COUNT_METRICS = /** @type {const} */ ([
  'instructionsPerRequest', 'collectorInstructionsPerRequest', 'collectionsPerWindow', ...SHOWN_SYSCALL_METRICS
])
/** The metrics compared for each measure, the verdict's first. */
const MEASURE_METRICS = /** @type {const} */ ({
  'wall-clock': ['requestsPerSec', 'p99Us'],
  instructions: ['programInstructionsPerRequest', ...OWN_VERDICT_METRICS]
})
/**
 * The metric of each measure that the verdict is on. A count's verdict is on the program's instructions, the collector's counted
 * apart (collector-split.js); a row whose counts have no such split (not V8, or counted before dyno split them) falls back to all
 * instructions and says so.
 */
export const PRIMARY_METRIC = /** @type {const} */ ({ 'wall-clock': 'requestsPerSec', instructions: 'programInstructionsPerRequest' })

/**
 * @param {import('./match-results.js').MatchedCell} matched
 * @param {{ measure: import('./read-inputs.js').Measure, given: number | null, alpha: number, paired: boolean, seeds: [number, number] }} settings
 *   given: the threshold given, or null
 * @returns {ComparisonRow}
 */
function compareCell (matched, { measure, given, alpha, paired, seeds }) {
  const [preferred, ...others] = MEASURE_METRICS[measure]
  const empty = { requestsPerSec: null, p99Us: null }
  const cell = paired ? { ...matched, baseline: inStartOrder(matched.baseline), candidate: inStartOrder(matched.candidate) } : matched
  const files = { baseline: cell.baseline.map(({ file }) => file), candidate: cell.candidate.map(({ file }) => file) }
  const notes = rowNotes(cell)
  const withoutSplit = preferred === 'programInstructionsPerRequest' ? countWithoutCollectorSplit(cell) : null
  /** @type {ComparisonRow['verdictMetric']} */
  const primary = withoutSplit ? 'instructionsPerRequest' : preferred
  if (withoutSplit) notes.push(`the verdict rests on all instructions, the collector's included: ${withoutSplit}`)
  const shown = measure === 'instructions' ? SHOWN_COUNT_METRICS.filter((metric) => metric !== primary) : []
  const warmup = measure === 'wall-clock' ? warmupChange(cell) : null
  const base = { sut: cell.sut, scenario: cell.scenario, connections: cell.connections, files, verdictMetric: primary, warmup }
  const problem = whyNotComparable(cell, primary)
  if (problem) {
    /** @type {(metric: keyof typeof METRICS) => MetricRow} */
    const sidesOnly = (metric) => {
      const { pick, digits } = METRICS[metric]
      const [baselineValues, candidateValues] = [valuesOf(cell.baseline, pick), valuesOf(cell.candidate, pick)]
      return {
        baseline: baselineValues && sideFigures(baselineValues, { seed: seeds[0], digits }),
        candidate: candidateValues && sideFigures(candidateValues, { seed: seeds[1], digits }),
        changePercent: null,
        ci95Percent: null,
        test: null,
        significant: null,
        threshold: null,
        verdict: null
      }
    }
    return {
      ...base,
      status: 'not-comparable',
      reason: problem,
      notes,
      verdict: null,
      runtimeDifferences: null,
      ...empty,
      ...Object.fromEntries([primary, ...others, ...shown].map((metric) => [metric, sidesOnly(metric)]))
    }
  }
  /** @type {(metric: keyof typeof METRICS) => MetricRow | null} */
  const changeOf = (metric) => {
    const { pick, digits, biggerIsBetter } = METRICS[metric]
    const [baselineValues, candidateValues] = [valuesOf(cell.baseline, pick), valuesOf(cell.candidate, pick)]
    if (!baselineValues || !candidateValues) return null
    const change = metricChange(baselineValues, candidateValues, { alpha, seeds, digits, paired })
    if (metric === primary && change.unpairedBecause) notes.push(`compared as independent samples (Mann–Whitney U), not paired: ${change.unpairedBecause}`)
    /** @type {RowThreshold} */
    const threshold = metric !== 'requestsPerSec' && metric !== 'p99Us'
      ? instructionThreshold({ baseline: baselineValues, candidate: candidateValues, paired: paired && change.unpairedBecause === null },
        { givenPercent: given, floorPercent: COMPARE_DEFAULTS.instructionThresholdFloorPercent })
      : { percent: given ?? COMPARE_DEFAULTS.thresholdPercent, from: given === null ? 'default' : 'given', spreadPercent: null }
    return {
      baseline: change.baseline,
      candidate: change.candidate,
      changePercent: change.changePercent,
      ci95Percent: change.ci95Percent,
      test: change.test,
      significant: change.significant,
      threshold: change.enoughRepeats ? threshold : null,
      verdict: change.enoughRepeats
        ? verdictOf({ significant: change.significant, changePercent: change.changePercent }, { thresholdPercent: threshold.percent, biggerIsBetter })
        : null
    }
  }
  const main = changeOf(primary)
  const more = Object.fromEntries(others.map((metric) => [metric, changeOf(metric)]))
  for (const metric of shown) {
    const figures = changeOf(metric)
    more[metric] = figures && { ...figures, threshold: null, verdict: null }
  }
  if (measure === 'wall-clock' && !more.p99Us) notes.push('p99 latency is missing from some results: compared on req/s only')
  if (main?.threshold?.from !== 'spread') {
    notes.push(...noiseNotes(main, main?.threshold?.percent ?? given ?? COMPARE_DEFAULTS.thresholdPercent, METRICS[primary].label,
      measure === 'instructions' ? 'window' : 'round'))
  }
  const enough = main?.test !== null && main?.test !== undefined
  const [baselineValues, candidateValues] = [valuesOf(cell.baseline, METRICS[primary].pick), valuesOf(cell.candidate, METRICS[primary].pick)]
  // The runtime's events are looked at where the level moved beyond its spread: the verdict where the runs are enough for its test, else
  // (one sustained run a side) the steady windows' own spread, and by at least the threshold a verdict would need; never the point
  // change of noisy runs.
  const shift = measure === 'wall-clock' && !enough ? steadyLevelShift(cell) : null
  const shiftThreshold = (given ?? COMPARE_DEFAULTS.thresholdPercent) / 100
  const levelChanged = measure === 'wall-clock' && (enough
    ? main?.verdict === 'improved' || main?.verdict === 'regressed'
    : shift !== null && (shift.interval[0] > 1 || shift.interval[1] < 1) && Math.abs(shift.ratio - 1) >= shiftThreshold)
  return {
    ...base,
    status: enough ? 'compared' : 'too-few-repeats',
    reason: enough
      ? null
      : tooFewRepeatsReason(baselineValues?.length ?? 0, candidateValues?.length ?? 0, alpha, measure === 'instructions' ? 'window' : 'run'),
    notes,
    verdict: enough ? /** @type {MetricRow} */ (main).verdict : null,
    runtimeDifferences: levelChanged
      ? runtimeDifferences(cell, enough
        ? { by: 'verdict', verdict: main?.verdict ?? null, ratio: null, interval: null }
        : { by: 'steady windows', verdict: null, ratio: shift?.ratio ?? null, interval: shift?.interval ?? null })
      : null,
    ...empty,
    ...more,
    [primary]: main
  }
}

/**
 * Where the runs vary by more than the threshold: each side's runs, or, for a paired test (which
 * cancels what a round's two runs share), the per-round ratios.
 * @param {MetricRow | null} figures the primary metric's row
 * @param {number} thresholdPercent
 * @param {string} label the metric, e.g. `req/s`
 * @param {'round' | 'window'} unit what a pair is
 * @returns {string[]}
 */
function noiseNotes (figures, thresholdPercent, label, unit) {
  const cvPercent = (/** @type {number[]} */ values) => values.length < 2 ? 0 : sampleStandardDeviation(values) / mean(values) * 100
  const hides = unit === 'window'
    ? 'the SUT\'s own work differs from window to window (garbage collections, timers), which hides changes of that size'
    : 'a noisy machine hides changes of that size'
  if (figures?.test?.name === 'wilcoxon-signed-rank' && figures.baseline && figures.candidate) {
    const baselineRuns = figures.baseline.runs
    const cv = cvPercent(figures.candidate.runs.map((value, index) => value / baselineRuns[index]))
    return cv > thresholdPercent ? [`the per-${unit} ratios of ${label} vary by more than the threshold (CV ${cv.toFixed(1)}%): ${hides}`] : []
  }
  return /** @type {const} */ (['baseline', 'candidate']).flatMap((side) => {
    const cv = cvPercent(figures?.[side]?.runs ?? [])
    return cv > thresholdPercent
      ? [`the ${side}'s ${label} vary from ${unit === 'window' ? 'window to window' : 'run to run'} ` +
          `by more than the threshold (CV ${cv.toFixed(1)}%): ${hides}`]
      : []
  })
}

/** @param {SourcedRecord[]} records @returns {SourcedRecord[]} in the order the runs started: round order */
function inStartOrder (records) {
  return [...records].sort((a, b) => Date.parse(a.record.startedAt) - Date.parse(b.record.startedAt))
}

/**
 * @param {import('./match-results.js').MatchedCell} cell
 * @param {keyof typeof METRICS} primary the metric of the verdict
 * @returns {string | null}
 */
function whyNotComparable (cell, primary) {
  if (cell.baseline.length === 0) return 'only in the candidate'
  if (cell.candidate.length === 0) return 'only in the baseline'
  const notOk = [...cell.baseline.map((sourced) => ({ side: 'baseline', ...sourced })), ...cell.candidate.map((sourced) => ({ side: 'candidate', ...sourced }))]
    .filter(({ record }) => record.status !== 'ok')
  if (notOk.length > 0) {
    return notOk.map(({ side, record, file }) => `${side}${record.repeat && record.repeat.of > 1 ? ` run ${record.repeat.index}` : ''} ${record.status}: ` +
      `${firstLine(record.reason ?? 'no reason recorded')} (${file})`).join('; ')
  }
  const [baseLoad, candidateLoad] = [cell.baseline[0].record.load, cell.candidate[0].record.load]
  const differing = LOAD_IDENTITY.filter((field) => (baseLoad[field] ?? null) !== (candidateLoad[field] ?? null))
  if (differing.length > 0) {
    return `the load differs: ${differing.map((field) => `${field} ${baseLoad[field] ?? 'none'} vs ${candidateLoad[field] ?? 'none'}`).join(', ')}`
  }
  const settings = [...new Set([...cell.baseline, ...cell.candidate].map(({ record }) => JSON.stringify(record.instructions?.settings ?? null)))]
  if (settings.length > 1) return `the runtime settings of the instruction counts differ: ${settings.join(' vs ')}`
  const missing = [...cell.baseline, ...cell.candidate].find(({ record }) => valuesOf([{ record, file: '' }], METRICS[primary].pick) === null)
  if (missing) return `a result measured no requests (${missing.file})`
  return null
}

/**
 * What a reader should know about a row: load settings that differ, runs the load generator limited.
 * @param {import('./match-results.js').MatchedCell} cell
 * @returns {string[]}
 */
function rowNotes (cell) {
  const notes = []
  if (cell.baseline.length > 0 && cell.candidate.length > 0) {
    const [baseLoad, candidateLoad] = [cell.baseline[0].record.load, cell.candidate[0].record.load]
    notes.push(...LOAD_NOTED.filter((field) => baseLoad[field] !== candidateLoad[field])
      .map((field) => `${field} differs: ${baseLoad[field]} (baseline) vs ${candidateLoad[field]} (candidate)`))
    // Absent in results written before `--runtime-events`: none were collected then.
    if (Boolean(baseLoad.runtimeEvents) !== Boolean(candidateLoad.runtimeEvents)) {
      notes.push(`runtime events were collected in the ${baseLoad.runtimeEvents ? 'baseline' : 'candidate'}'s runs only (--runtime-events): ` +
        'collecting them costs the SUT time, so part of a change of level may be theirs')
    }
  }
  for (const side of /** @type {const} */ (['baseline', 'candidate'])) {
    const bound = cell[side].filter(({ record }) => record.summary?.generatorBound)
    if (bound.length > 0) {
      notes.push(`${bound.length} ${side} run${bound.length > 1 ? 's were' : ' was'} generator-bound: the load generator, not the SUT, set req/s`)
    }
    const disturbed = cell[side].filter(({ record }) => record.interference?.disturbed)
    if (disturbed.length > 0) {
      notes.push(`${disturbed.length} ${side} run${disturbed.length > 1 ? 's were' : ' was'} disturbed: ` +
        `${disturbed.map(({ record }) => record.interference?.detail).join('; ')}`)
    }
  }
  return notes
}

/** @param {string} text @returns {string} the first line, at most 200 characters */
function firstLine (text) {
  const [line] = text.split('\n')
  return line.length > 200 ? `${line.slice(0, 199)}…` : line
}

/**
 * The rows that make `--fail-on` fail.
 * @param {Comparison} comparison
 * @param {readonly string[]} failOn `regression`, `not-comparable`
 * @returns {ComparisonRow[]}
 */
export function failingRows (comparison, failOn) {
  return comparison.rows.filter((row) => (failOn.includes('regression') && regressedMetrics(row).length > 0) ||
    (failOn.includes('not-comparable') && row.status === 'not-comparable'))
}

/**
 * @param {ComparisonRow} row
 * @returns {string[]} what regressed in the row: its primary metric (the row's verdict) and the system calls a count compares
 */
export function regressedMetrics (row) {
  return [
    ...(row.verdict === 'regressed' ? [METRICS[row.verdictMetric].label] : []),
    ...OWN_VERDICT_METRICS.filter((metric) => row[metric]?.verdict === 'regressed').map((metric) => METRICS[metric].label)
  ]
}

/**
 * Why a row's counts cannot be judged on the program's instructions, or null when every window of every count has them.
 * @param {import('./match-results.js').MatchedCell} cell
 * @returns {string | null}
 */
function countWithoutCollectorSplit (cell) {
  const lacking = [...cell.baseline, ...cell.candidate].find(({ record }) => record.status === 'ok' &&
    !record.instructions?.windows.every((window) => typeof window.programInstructionsPerRequest === 'number'))
  if (!lacking) return null
  const instructions = lacking.record.instructions
  const why = instructions?.collector && 'reason' in instructions.collector
    ? instructions.collector.reason
    : 'it was counted before dyno split the collector apart'
  return `${lacking.file} has no count of the collector apart (${why})`
}

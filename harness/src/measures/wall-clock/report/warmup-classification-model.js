// @ts-check
// What the reports say of each cell's warm-up as classified (judging/cell-classification.js): per scenario, a row per subject with
// its classification, its steady state and what its runtime did before and after the steady state began, and a chart per subject of
// its series (warm-up and measured windows as one timeline since the first request) with the runtime's events per window. Both the
// markdown and the HTML report write these rows; every figure comes from the result files, and a figure the runtime does not report
// stays null (drawn '-', with the reason beside it), never 0.
import { formatInteger } from '../../../platform/text/format.js'
import { roundTo } from '../../../platform/util/numbers.js'
import { representative, topLevelCells } from './scenario-charts.js'
import { runLabels } from '../../../records/run-labels.js'
import { PARTIAL_WINDOW_SHARE } from '../../../judging/cell-classification.js'

/**
 * @typedef {import('../../../records/result-record.js').ResultRecord} ResultRecord
 * @typedef {import('../../../judging/cell-classification.js').CellClassification} CellClassification
 * @typedef {import('../../../judging/cell-classification.js').RuntimeSpan} RuntimeSpan
 * @typedef {import('../../../subjects/runtime-events/phase-runtime-events.js').RuntimeWindow} RuntimeWindow
 * @typedef {{ before: number | null, after: number | null }} BeforeAfter either side of the steady start; null: not known, or no steady
 *   state
 *
 * @typedef {object} WarmupRow one subject's representative cell (the run of median req/s at the highest connection level)
 * @property {string} sut
 * @property {string | null} run the run's label when several runs are set side by side
 * @property {import('../../../judging/series-classification.js').Classification | null} classification the throughput's; null: not
 *   classified
 * @property {import('../../../judging/series-classification.js').Classification | null} latencyClassification the p50's
 * @property {number | null} steadyStartSec since the first request
 * @property {number | null} steadyRequestsPerSec
 * @property {number | null} speedup the steady req/s over the first level's
 * @property {number | null} optimizedBeforePct the share of the functions optimised (every tier) that were optimised before the steady
 *   start
 * @property {BeforeAfter} deoptimized deoptimisations
 * @property {BeforeAfter} collectionsPerSec
 * @property {BeforeAfter} gcPausePct the share of the time the collector paused, %
 * @property {BeforeAfter} otherThreadsCpuPct the cpu time of the SUT's threads other than its main one (V8's concurrent marking and
 *   compilation), as a share of the time, %
 * @property {string} summary one sentence: what the runtime did around the steady start, or why the series has no classification
 * @property {string} runtimeEvents where the runtime's events come from, or why there are none
 *
 * @typedef {object} WarmupEvents the runtime's events per window, [s since the first request (the window's middle), value]; a series is
 *   null when the runtime does not report it
 * @property {[number, number][] | null} optimized functions optimised, every tier summed
 * @property {[number, number][] | null} deoptimized
 * @property {[number, number][] | null} collections
 * @property {[number, number][] | null} gcPauseMs
 * @property {[number, number][] | null} otherThreadsCpuMs the cpu time of the SUT's threads other than its main one (V8's background
 *   marking and compilation), ms per window
 *
 * @typedef {object} WarmupChart one subject's series
 * @property {string} name the subject (and its run's label when several runs are set side by side)
 * @property {string} title
 * @property {string} subtitle where the runtime's events come from, or why the chart has none
 * @property {number} endSec where the series ends
 * @property {number | null} warmupEndSec where the measured phase began; null: the run had no warm-up phase
 * @property {[number, number][]} throughput per window, [s since the first request (the window's middle), req/s]; a window cut short
 *   by the end of its phase left out
 * @property {[number, number][]} p50 per window with responses, [s, ms]; a window cut short left out
 * @property {number[]} changePointsSec the throughput's change points
 * @property {number | null} steadyStartSec
 * @property {WarmupEvents | null} events null: the runtime reported no events
 *
 * @typedef {object} WarmupSection
 * @property {string} scenario
 * @property {number} connections the level the cells were measured at (a sweep's highest)
 * @property {WarmupRow[]} rows fastest first, as the report's other charts
 * @property {WarmupChart[]} charts one per subject whose series was classified
 */

/** The table's columns; `run` only when several runs are set side by side. */
export const WARMUP_COLUMNS = [
  'SUT',
  'run',
  'throughput',
  'p50 latency',
  'steady from',
  'steady req/s',
  'speed-up',
  'optimised before steady',
  'deopts before / after',
  'collections/s before / after',
  'GC pause before / after',
  'other threads cpu before / after',
  'what the runtime did',
  'runtime events'
]
/** The columns of WARMUP_COLUMNS that hold figures (aligned right). */
export const WARMUP_FIGURE_COLUMNS = ['steady from', 'steady req/s', 'speed-up', 'optimised before steady', 'deopts before / after',
  'collections/s before / after', 'GC pause before / after', 'other threads cpu before / after']

/**
 * @param {import('../../../records/read-run.js').RunData[]} runs one run, or several set side by side
 * @returns {Map<string, WarmupSection | null>} per scenario of the runs; null when none of its records was classified
 */
export function warmupClassification (runs) {
  const labels = runLabels(runs)
  const sideBySide = runs.length > 1
  const entries = runs.flatMap((run, index) => run.records.map((record) => ({ runLabel: labels[index], run, record })))
  const scenarios = [...new Set(entries.map((entry) => entry.record.scenario.name))]
  return new Map(scenarios.map((scenario) => {
    const ofScenario = entries.filter((entry) => entry.record.scenario.name === scenario)
    // A scenario none of whose series was long enough to classify (every profile but sustained) gets no section: a table of "not
    // classified" rows would say nothing the latency over time does not.
    if (!ofScenario.some((entry) => entry.record.classification?.classification)) return [scenario, null]
    const { levels, cells } = topLevelCells(ofScenario)
    const picked = cells.map((cell) => ({ cell, record: representative(cell) }))
      .filter(/** @returns {item is { cell: import('./scenario-charts.js').Cell, record: ResultRecord }} */ (item) => item.record !== null)
    const rows = picked.map(({ cell, record }) => warmupRow(cell.subject, sideBySide ? cell.runLabel : null, record))
    const charts = picked.filter(({ record }) => record.classification?.throughput)
      .map(({ cell, record }) => warmupChart(sideBySide ? `${cell.subject} · ${cell.runLabel}` : cell.subject, record))
    return [scenario, { scenario, connections: levels[levels.length - 1], rows, charts }]
  }))
}

/**
 * A row as table cells: WARMUP_COLUMNS, less `run` unless asked for; '-' for what is not known or does not apply.
 * @param {WarmupRow} row @param {boolean} withRun
 * @returns {string[]}
 */
export function warmupCells (row, withRun) {
  const pair = (/** @type {BeforeAfter} */ { before, after }, /** @type {(value: number) => string} */ format) =>
    before === null && after === null ? '-' : `${before === null ? '-' : format(before)} / ${after === null ? '-' : format(after)}`
  return [
    row.sut,
    ...(withRun ? [row.run ?? '-'] : []),
    row.classification ?? 'not classified',
    row.latencyClassification ?? '-',
    row.steadyStartSec === null ? '-' : `${row.steadyStartSec} s`,
    formatInteger(row.steadyRequestsPerSec),
    row.speedup === null ? '-' : `${row.speedup.toFixed(2)}×`,
    row.optimizedBeforePct === null ? '-' : `${row.optimizedBeforePct} %`,
    pair(row.deoptimized, formatInteger),
    pair(row.collectionsPerSec, (value) => value.toFixed(1)),
    pair(row.gcPausePct, (value) => `${value.toFixed(1)} %`),
    pair(row.otherThreadsCpuPct, (value) => `${value.toFixed(1)} %`),
    row.summary,
    row.runtimeEvents
  ]
}

/** @param {number} ms @returns {number} seconds, to the window's precision */
const seconds = (ms) => roundTo(ms / 1000, 2)

/** @param {number | null} count @param {RuntimeSpan} span @returns {number | null} per second of the span; null: not known or no time */
const perSec = (count, span) => count === null || span.durationMs === 0 ? null : roundTo(count / (span.durationMs / 1000), 1)

/** @param {RuntimeSpan} span @returns {number | null} the share of the span the collector paused, % */
const pausePct = (span) => span.gcPauseMs === null || span.durationMs === 0 ? null : roundTo(100 * span.gcPauseMs / span.durationMs, 1)

/** @param {RuntimeSpan} span @returns {number | null} the other threads' cpu over the span, % of its time */
const otherThreadsPct = (span) => {
  // Absent from the spans of results written before dyno read the threads' cpu.
  const ms = span.otherThreadsCpuMs ?? null
  return ms === null || span.durationMs === 0 ? null : roundTo(100 * ms / span.durationMs, 1)
}

/** @param {number} count @param {string} noun @returns {string} `1 deoptimisation`, `3 deoptimisations` */
const counted = (count, noun) => `${formatInteger(count)} ${noun}${count === 1 ? '' : 's'}`

/**
 * @param {string} sut @param {string | null} run @param {ResultRecord} record
 * @returns {WarmupRow}
 */
function warmupRow (sut, run, record) {
  const verdict = record.classification
  const around = verdict?.aroundSteadyStart ?? null
  const spans = around ?? { before: null, after: null }
  const either = (/** @type {(span: RuntimeSpan) => number | null} */ value) => ({
    before: spans.before && spans.before.durationMs > 0 ? value(spans.before) : null,
    after: spans.after ? value(spans.after) : null
  })
  return {
    sut,
    run,
    classification: verdict?.classification ?? null,
    latencyClassification: verdict?.latency?.classification ?? null,
    steadyStartSec: typeof verdict?.throughput?.steadyStartMs === 'number' ? seconds(verdict.throughput.steadyStartMs) : null,
    steadyRequestsPerSec: verdict?.throughput?.steadyLevel ?? null,
    speedup: verdict?.speedup ?? null,
    optimizedBeforePct: around?.optimizedBeforePct ?? null,
    deoptimized: either((span) => span.deoptimized),
    collectionsPerSec: either((span) => perSec(span.collections, span)),
    gcPausePct: either(pausePct),
    otherThreadsCpuPct: either(otherThreadsPct),
    summary: summarySentence(verdict),
    runtimeEvents: eventsSource(record)
  }
}

/**
 * What the runtime did around the steady start, in one sentence, from the classification's own spans; what the runtime does not
 * report is left out (the row's runtime events say why).
 * @param {CellClassification | null | undefined} verdict
 * @returns {string}
 */
function summarySentence (verdict) {
  if (!verdict) return 'not classified: the result was written before dyno classified a cell\'s series'
  if (verdict.classification === null || !verdict.throughput) return `not classified: ${verdict.reason ?? 'no series'}`
  const around = verdict.aroundSteadyStart
  if (!around || verdict.throughput.steadyStartMs === null) {
    const changes = verdict.throughput.changePointsMs
    const whole = verdict.changePoints[0] ? joined(verdict.changePoints[0].before, verdict.changePoints[0].after) : null
    return [
      `no steady state: the throughput changed ${changes.length === 1 ? 'once' : `${changes.length} times`}` +
        `${changes.length > 0 ? `, the last at ${seconds(changes[changes.length - 1])} s` : ''}`,
      whole && eventTally(whole, 'over the series'),
      whole && whole.collections !== null ? `${perSec(whole.collections, whole)?.toFixed(1)} collections/s` : null
    ].filter(Boolean).join('; ')
  }
  const { before, after } = around
  const at = `${seconds(verdict.throughput.steadyStartMs)} s`
  if (before.durationMs === 0) {
    const whole = joined(before, after)
    return ['steady from the first window', eventTally(whole, 'over the series'),
      whole.collections === null ? null : `${perSec(whole.collections, whole)?.toFixed(1)} collections/s`].filter(Boolean).join('; ')
  }
  const optimized = before.optimized === null || after.optimized === null ? null : before.optimized + after.optimized
  const deoptimized = before.deoptimized === null || after.deoptimized === null ? null : before.deoptimized + after.deoptimized
  const parts = [
    optimized === null
      ? null
      : optimized === 0
        ? 'no optimisation'
        : `${around.optimizedBeforePct} % of ${counted(optimized, 'optimisation')}`,
    deoptimized === null || deoptimized === 0 ? null : `${formatInteger(before.deoptimized)} of ${counted(deoptimized, 'deoptimisation')}`
  ].filter(Boolean)
  return [
    (parts.length > 0 ? `${parts.join(' and ')} before the steady state at ${at}` : `steady state from ${at}`) +
      (deoptimized === 0 ? ', no deoptimisation' : ''),
    before.collections === null || after.collections === null
      ? null
      : `${perSec(before.collections, before)?.toFixed(1)} collections/s before, ${perSec(after.collections, after)?.toFixed(1)} after`
  ].filter(Boolean).join('; ')
}

/** @param {RuntimeSpan} before @param {RuntimeSpan} after @returns {RuntimeSpan} the two as one */
function joined (before, after) {
  const sum = (/** @type {number | null} */ a, /** @type {number | null} */ b) => a === null || b === null ? null : roundTo(a + b, 3)
  return {
    durationMs: before.durationMs + after.durationMs,
    optimized: sum(before.optimized, after.optimized),
    deoptimized: sum(before.deoptimized, after.deoptimized),
    collections: sum(before.collections, after.collections),
    gcPauseMs: sum(before.gcPauseMs, after.gcPauseMs),
    otherThreadsCpuMs: sum(before.otherThreadsCpuMs, after.otherThreadsCpuMs)
  }
}

/** @param {RuntimeSpan} span @param {string} where @returns {string | null} `430 optimisations and 9 deoptimisations over the series` */
function eventTally (span, where) {
  const parts = [
    span.optimized === null ? null : counted(span.optimized, 'optimisation'),
    span.deoptimized === null ? null : counted(span.deoptimized, 'deoptimisation')
  ].filter(Boolean)
  return parts.length === 0 ? null : `${parts.join(' and ')} ${where}`
}

/**
 * The runtime events of the measured phase (the warm-up's when it has none): their source, and what it does not report; or why there
 * are none.
 * @param {ResultRecord} record
 * @returns {string}
 */
function eventsSource (record) {
  const events = record.summary?.runtimeEvents ?? record.warmup?.runtimeEvents
  if (!events) return 'not recorded: the result was written before dyno read runtime events'
  if (events.source === null) return `not known: ${events.reason ?? 'no reason recorded'}`
  const unreported = [events.totals?.optimized ? null : 'compilations', events.totals?.deoptimized ? null : 'deoptimisations'].filter(
    Boolean
  )
  return `${events.source}: ${events.describes ?? '-'}${unreported.length > 0 ? `; it reports no ${unreported.join(' or ')}` : ''}`
}

/**
 * @param {string} name @param {ResultRecord} record a record whose series was classified
 * @returns {WarmupChart}
 */
function warmupChart (name, record) {
  const verdict = /** @type {CellClassification} */ (record.classification)
  const throughput = /** @type {NonNullable<CellClassification['throughput']>} */ (verdict.throughput)
  const warmupWindows = record.warmup?.timeseries ?? []
  const warmupMs = warmupWindows.reduce((sum, window) => sum + window.durationMs, 0)
  // Index for index with the windows: a phase whose events were not read gives nulls.
  const runtimeOf = (/** @type {ResultRecord['summary']} */ phase) =>
    (phase?.timeseries ?? []).map((_, index) => phase?.runtimeEvents?.windows?.[index] ?? null)
  const warmupRuntime = runtimeOf(record.warmup)
  const measureRuntime = runtimeOf(record.summary)
  const windows = [
    ...warmupWindows.map((window, index) => ({ window, startMs: window.startMs, runtime: warmupRuntime[index] })),
    ...(record.summary?.timeseries ?? []).map((window, index) => ({
      window,
      startMs: warmupMs + window.startMs,
      runtime: measureRuntime[index]
    }))
  ]
  // A window the phase ended inside has a rate that is noise: the classification leaves it out, and its req/s and p50 are not drawn
  // either (its runtime events are).
  const whole = windows.filter((entry) => entry.window.durationMs >= PARTIAL_WINDOW_SHARE * record.load.windowMs)
  const middle = (/** @type {typeof windows[number]} */ { window, startMs }) => roundTo((startMs + window.durationMs / 2) / 1000, 3)
  const last = windows[windows.length - 1]
  /** @param {(runtime: RuntimeWindow) => number | null} value @returns {[number, number][] | null} */
  const eventSeries = (value) => {
    const points = windows.map((entry) => [middle(entry), entry.runtime ? value(entry.runtime) : null])
    return points.some(([, count]) => count !== null)
      ? /** @type {[number, number][]} */ (points.filter(([, count]) => count !== null))
      : null
  }
  const gc = (/** @type {RuntimeWindow} */ runtime) => Object.values(runtime.gc)
  const events = {
    optimized: eventSeries((runtime) =>
      runtime.optimized ? Object.values(runtime.optimized).reduce((sum, count) => sum + count, 0) : null
    ),
    deoptimized: eventSeries((runtime) => runtime.deoptimized?.count ?? null),
    collections: eventSeries((runtime) => (gc(runtime).length === 0 ? null : gc(runtime).reduce((sum, tally) => sum + tally.count, 0))),
    gcPauseMs: eventSeries((runtime) =>
      gc(runtime).length === 0
        ? null
        : roundTo(
          gc(runtime).reduce((sum, tally) => sum + tally.pauseMs, 0),
          3
        )
    ),
    otherThreadsCpuMs: eventSeries((runtime) => runtime.threadCpuMs?.othersMs ?? null)
  }
  const steady = throughput.steadyStartMs === null
    ? ''
    : `, steady from ${seconds(throughput.steadyStartMs)} s at ${formatInteger(throughput.steadyLevel)} req/s` +
      `${verdict.speedup === null ? '' : `, ${verdict.speedup.toFixed(2)}× the first level`}`
  return {
    name,
    title: `${name}: ${verdict.classification}${steady} (p50: ${verdict.latency?.classification ?? '-'})`,
    subtitle: `runtime events: ${eventsSource(record)}`,
    endSec: last ? roundTo((last.startMs + last.window.durationMs) / 1000, 3) : 0,
    warmupEndSec: warmupWindows.length > 0 ? roundTo(warmupMs / 1000, 3) : null,
    throughput: whole.map((entry) => /** @type {[number, number]} */ ([middle(entry), entry.window.requestsPerSec])),
    p50: whole.filter((entry) => entry.window.latencyMs !== null)
      .map((entry) => /** @type {[number, number]} */ ([middle(entry), /** @type {{ p50: number }} */ (entry.window.latencyMs).p50])),
    changePointsSec: throughput.changePointsMs.map(seconds),
    steadyStartSec: throughput.steadyStartMs === null ? null : seconds(throughput.steadyStartMs),
    events: Object.values(events).some((series) => series !== null) ? events : null
  }
}

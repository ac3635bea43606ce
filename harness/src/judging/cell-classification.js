// @ts-check
// A cell classified from its own series: its warm-up and measured windows as one timeline, the throughput (req/s of each window, a
// window without a response as 0: a stall counts for the time it took) and the median latency (of the windows with responses) each
// classified by their change points (series-classification.js), and what the runtime did before and after each change and before and
// after the steady state began. The cell's classification is its throughput's; its latency's is kept beside it.
import { roundTo } from '../platform/util/numbers.js'
import { runtimeTotals } from '../subjects/runtime-events/phase-runtime-events.js'
import { MIN_SERIES_LENGTH, classifySeries } from './series-classification.js'

/**
 * @typedef {import('./series-window.js').SeriesWindow} Window
 * @typedef {import('../subjects/runtime-events/phase-runtime-events.js').RuntimeWindow} RuntimeWindow
 *
 * @typedef {object} RuntimeSpan what the runtime did in part of the series
 * @property {number} durationMs
 * @property {number | null} optimized functions optimised, every tier; null: not known
 * @property {number | null} deoptimized null: not known
 * @property {number | null} collections null: not known
 * @property {number | null} gcPauseMs
 * @property {number | null} otherThreadsCpuMs the cpu time of the SUT's threads other than its main one (V8's background work);
 *   null: not read
 *
 * @typedef {object} SeriesVerdict
 * @property {import('./series-classification.js').Classification} classification
 * @property {number[]} changePointsMs where each new level starts, since the first request
 * @property {number | null} steadyStartMs
 * @property {number | null} steadyLevel the steady state's value: req/s for the throughput, ms for the latency
 *
 * @typedef {object} CellClassification
 * @property {import('./series-classification.js').Classification | null} classification the throughput's; null: the series is too short
 * @property {string | null} reason why there is none
 * @property {number} windows how many whole windows the series held, those without a response among them
 * @property {SeriesVerdict | null} throughput
 * @property {SeriesVerdict | null} latency the windows' p50
 * @property {number | null} speedup the steady req/s over the first level's
 * @property {{ atMs: number, before: RuntimeSpan, after: RuntimeSpan }[]} changePoints the throughput's, with the runtime's events either
 *   side
 * @property {{ before: RuntimeSpan, after: RuntimeSpan, optimizedBeforePct: number | null } | null} aroundSteadyStart null: no steady state
 */

/**
 * A last window shorter than this share of the others is left out: its rate is noise (the phase ended inside it); the report leaves it out
 * too.
 */
export const PARTIAL_WINDOW_SHARE = 0.5

/**
 * @param {{ warmup: Window[], measure: Window[], windowMs: number, runtime: { warmup: RuntimeWindow[] | null, measure: RuntimeWindow[] |
 *   null } }} series runtime: the phases' runtime windows, index for index with their timeseries; null: not collected
 * @returns {CellClassification}
 */
export function classifyCell ({ warmup, measure, windowMs, runtime }) {
  const warmupMs = warmup.reduce((sum, window) => sum + window.durationMs, 0)
  const timeline = [...warmup, ...measure.map((window) => ({ ...window, startMs: window.startMs + warmupMs }))]
  const runtimeWindows = runtime.warmup && runtime.measure
    ? [...runtime.warmup, ...runtime.measure.map((window) => ({ ...window, startMs: window.startMs + warmupMs }))]
    : null
  // Every whole window counts for the throughput, one without a response as 0; the latency has a median only where there were responses.
  const whole = timeline.filter((window) => window.durationMs >= PARTIAL_WINDOW_SHARE * windowMs)
  const answered = whole.filter((window) => window.requests > 0 && window.latencyMs !== null)
  if (answered.length < MIN_SERIES_LENGTH) {
    return {
      classification: null,
      reason: `a series of ${answered.length} windows with responses; the classification needs ${MIN_SERIES_LENGTH} ` +
        `(${MIN_SERIES_LENGTH * windowMs / 1000} s at ${windowMs} ms windows: \`--profile sustained\`)`,
      windows: whole.length,
      throughput: null,
      latency: null,
      speedup: null,
      changePoints: [],
      aroundSteadyStart: null
    }
  }
  // The runtime's events either side of a window's start, compared with its unrounded start.
  const spanAt = (/** @type {number} */ startMs) => ({
    before: span(runtimeWindows, timeline, (start) => start < startMs),
    after: span(runtimeWindows, timeline, (start) => start >= startMs)
  })
  const shape = { windowsPerSecond: 1000 / windowMs }
  const byThroughput = classifySeries(whole.map((window) => window.requests / window.durationMs), { ...shape, better: 'higher' })
  const byLatency = classifySeries(
    answered.map((window) => /** @type {{ p50: number }} */ (window.latencyMs).p50),
    { ...shape, better: 'lower' }
  )
  /**
   * @param {ReturnType<typeof classifySeries>} result @param {Window[]} windows the series' windows @param {(level: number) => number}
   *   level
   * @returns {SeriesVerdict}
   */
  const verdict = (result, windows, level) => ({
    classification: result.classification,
    changePointsMs: result.changePoints.map((index) => roundTo(windows[index].startMs, 1)),
    steadyStartMs: result.steadyFrom === null ? null : roundTo(windows[result.steadyFrom].startMs, 1),
    steadyLevel: result.steadyLevel === null ? null : level(result.steadyLevel)
  })
  const throughput = verdict(byThroughput, whole, (requestsPerMs) => Math.round(1000 * requestsPerMs))
  const firstLevel = 1000 * byThroughput.segments[0].mean
  const around = byThroughput.steadyFrom === null ? null : spanAt(whole[byThroughput.steadyFrom].startMs)
  return {
    classification: throughput.classification,
    reason: null,
    windows: whole.length,
    throughput,
    latency: verdict(byLatency, answered, (ms) => roundTo(ms, 3)),
    // A flat series has one level: there is nothing to speed up from.
    speedup:
      throughput.steadyLevel === null || throughput.classification === 'flat' || firstLevel === 0
        ? null
        : roundTo(throughput.steadyLevel / firstLevel, 3),
    changePoints: byThroughput.changePoints.map((index) => ({ atMs: roundTo(whole[index].startMs, 1), ...spanAt(whole[index].startMs) })),
    aroundSteadyStart: around && {
      ...around,
      optimizedBeforePct:
        around.before.optimized === null || around.after.optimized === null || around.before.optimized + around.after.optimized === 0
          ? null
          : roundTo((100 * around.before.optimized) / (around.before.optimized + around.after.optimized), 1)
    }
  }
}

/**
 * @param {RuntimeWindow[] | null} runtimeWindows @param {Window[]} timeline @param {(startMs: number) => boolean} within
 * @returns {RuntimeSpan}
 */
function span (runtimeWindows, timeline, within) {
  const durationMs = roundTo(timeline.filter((window) => within(window.startMs)).reduce((sum, window) => sum + window.durationMs, 0), 1)
  if (!runtimeWindows) {
    return { durationMs, optimized: null, deoptimized: null, collections: null, gcPauseMs: null, otherThreadsCpuMs: null }
  }
  const totals = runtimeTotals(runtimeWindows.filter((window) => within(window.startMs)))
  const gc = Object.values(totals.gc)
  return {
    durationMs,
    optimized: totals.optimized ? Object.values(totals.optimized).reduce((sum, count) => sum + count, 0) : null,
    deoptimized: totals.deoptimized?.count ?? null,
    collections: gc.reduce((sum, tally) => sum + tally.count, 0),
    gcPauseMs: roundTo(gc.reduce((sum, tally) => sum + tally.pauseMs, 0), 3),
    otherThreadsCpuMs: totals.threadCpuMs?.othersMs ?? null
  }
}

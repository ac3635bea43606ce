// @ts-check
// A cell classified from its own series: its warm-up and measured windows as one timeline, the throughput (as time per request) and the
// median latency each classified by their change points (series-classification.js), and what the runtime did before and after each
// change and before and after the steady state began. The cell's classification is its throughput's; its latency's is kept beside it.
import { roundTo } from '../util/numbers.js'
import { runtimeTotals } from '../runtime-events/phase-runtime-events.js'
import { MIN_SERIES_LENGTH, classifySeries } from './series-classification.js'

/**
 * @typedef {import('../load/timeseries.js').Window} Window
 * @typedef {import('../runtime-events/phase-runtime-events.js').RuntimeWindow} RuntimeWindow
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
 * @property {number} windows how many windows the series held
 * @property {SeriesVerdict | null} throughput
 * @property {SeriesVerdict | null} latency the windows' p50
 * @property {number | null} speedup the steady req/s over the first level's
 * @property {{ atMs: number, before: RuntimeSpan, after: RuntimeSpan }[]} changePoints the throughput's, with the runtime's events either side
 * @property {{ before: RuntimeSpan, after: RuntimeSpan, optimizedBeforePct: number | null } | null} aroundSteadyStart null: no steady state
 */

/** A last window shorter than this share of the others is left out: its rate is noise (the phase ended inside it); the report leaves it out too. */
export const PARTIAL_WINDOW_SHARE = 0.5

/**
 * @param {{ warmup: Window[], measure: Window[], windowMs: number, runtime: { warmup: RuntimeWindow[] | null, measure: RuntimeWindow[] | null } }} series
 *   runtime: the phases' runtime windows, index for index with their timeseries; null: not collected
 * @returns {CellClassification}
 */
export function classifyCell ({ warmup, measure, windowMs, runtime }) {
  const warmupMs = warmup.reduce((sum, window) => sum + window.durationMs, 0)
  const timeline = [...warmup, ...measure.map((window) => ({ ...window, startMs: window.startMs + warmupMs }))]
  const runtimeWindows = runtime.warmup && runtime.measure
    ? [...runtime.warmup, ...runtime.measure.map((window) => ({ ...window, startMs: window.startMs + warmupMs }))]
    : null
  const kept = timeline.filter((window) => window.requests > 0 && window.latencyMs !== null && window.durationMs >= PARTIAL_WINDOW_SHARE * windowMs)
  if (kept.length < MIN_SERIES_LENGTH) {
    return {
      classification: null,
      reason: `a series of ${kept.length} windows with responses; the classification needs ${MIN_SERIES_LENGTH} ` +
        `(${MIN_SERIES_LENGTH * windowMs / 1000} s at ${windowMs} ms windows: \`--profile sustained\`)`,
      windows: kept.length,
      throughput: null,
      latency: null,
      speedup: null,
      changePoints: [],
      aroundSteadyStart: null
    }
  }
  const startOf = (/** @type {number} */ index) => roundTo(kept[index].startMs, 1)
  // The runtime's events either side of a window's start, compared with its unrounded start.
  const spanAt = (/** @type {number} */ index) => ({
    before: span(runtimeWindows, timeline, (start) => start < kept[index].startMs),
    after: span(runtimeWindows, timeline, (start) => start >= kept[index].startMs)
  })
  const byThroughput = classifySeries(kept.map((window) => window.durationMs / window.requests))
  const byLatency = classifySeries(kept.map((window) => /** @type {{ p50: number }} */ (window.latencyMs).p50))
  const verdict = (/** @type {ReturnType<typeof classifySeries>} */ result, /** @type {(level: number) => number} */ level) => ({
    classification: result.classification,
    changePointsMs: result.changePoints.map(startOf),
    steadyStartMs: result.steadyFrom === null ? null : startOf(result.steadyFrom),
    steadyLevel: result.steadyLevel === null ? null : level(result.steadyLevel)
  })
  const throughput = verdict(byThroughput, (msPerRequest) => Math.round(1000 / msPerRequest))
  const firstLevel = 1000 / byThroughput.segments[0].mean
  const around = byThroughput.steadyFrom === null ? null : spanAt(byThroughput.steadyFrom)
  return {
    classification: throughput.classification,
    reason: null,
    windows: kept.length,
    throughput,
    latency: verdict(byLatency, (ms) => roundTo(ms, 3)),
    // A flat series has one level: there is nothing to speed up from.
    speedup: throughput.steadyLevel === null || throughput.classification === 'flat' ? null : roundTo(throughput.steadyLevel / firstLevel, 3),
    changePoints: byThroughput.changePoints.map((index) => ({ atMs: startOf(index), ...spanAt(index) })),
    aroundSteadyStart: around && {
      ...around,
      optimizedBeforePct: around.before.optimized === null || around.after.optimized === null || around.before.optimized + around.after.optimized === 0
        ? null
        : roundTo(100 * around.before.optimized / (around.before.optimized + around.after.optimized), 1)
    }
  }
}

/**
 * @param {RuntimeWindow[] | null} runtimeWindows @param {Window[]} timeline @param {(startMs: number) => boolean} within
 * @returns {RuntimeSpan}
 */
function span (runtimeWindows, timeline, within) {
  const durationMs = roundTo(timeline.filter((window) => within(window.startMs)).reduce((sum, window) => sum + window.durationMs, 0), 1)
  if (!runtimeWindows) return { durationMs, optimized: null, deoptimized: null, collections: null, gcPauseMs: null, otherThreadsCpuMs: null }
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

// @ts-check
// A phase's runtime events, cut into the phase's own timeseries windows: in each window, the collections by kind with their pause, the
// functions optimised by tier, the deoptimisations by category, and the event-loop delay; over the phase, the totals and the
// deoptimisations grouped by function and reason (what `dyno compare` lines up between two runs). The events came from files and
// output the SUT wrote: every tally is keyed by a kind, tier or category the source declares (a collection of another kind counts as
// `other`, a tier or category it does not declare is left out) in an object without a prototype, so no name read can reach one.
import { DEOPT_CATEGORIES } from './deopt-categories.js'
import { roundTo } from '../../platform/util/numbers.js'
import { threadCpuBetween } from './thread-cpu-sampler.js'

/** How many groups of deoptimisations a phase keeps, most frequent first. */
export const KEPT_DEOPT_GROUPS = 100
/** The kind a collection of a kind its source does not declare is counted as. */
export const OTHER_GC_KIND = 'other'
const CATEGORIES = new Set([...DEOPT_CATEGORIES.map((rule) => rule.category), 'other'])

/**
 * An object to count into by names read from data: no prototype, so `__proto__` or `constructor` is a key like any other.
 * @template T @param {[string, T][]} [entries] @returns {Record<string, T>}
 */
const tallyOf = (entries = []) => Object.assign(Object.create(null), Object.fromEntries(entries))

/**
 * @typedef {{ count: number, pauseMs: number }} GcTally
 * @typedef {object} RuntimeWindow
 * @property {number} startMs as its timeseries window's
 * @property {Record<string, GcTally>} gc by kind, every kind the source tells apart
 * @property {Record<string, number> | null} optimized functions compiled by tier; null: the runtime reports no compilation
 * @property {{ count: number, byCategory: Record<string, number> } | null} deoptimized null: the runtime reports none
 * @property {{ meanMs: number, p99Ms: number, maxMs: number } | null} eventLoopDelay null: not probed, or no sample in the window
 * @property {{ mainMs: number, othersMs: number } | null} threadCpuMs the cpu time of the main thread and of every other thread of the
 *   SUT's process in the window (thread-cpu-sampler.js); null: not read (a runtime whose threads are not the program's alone, a SUT on
 *   another host, a SUT of several worker processes)
 *
 * @typedef {object} DeoptGroup
 * @property {string} fn @property {string} position @property {string} kind @property {string} category @property {string} reason
 * @property {number} count @property {number} firstMs since the phase started
 *
 * @typedef {object} PhaseRuntimeEvents
 * @property {string | null} source the source's name; null: none
 * @property {string | null} describes
 * @property {string | null} reason why there are none; null: there are
 * @property {RuntimeWindow[] | null} windows
 * @property {{ gc: Record<string, GcTally>, optimized: Record<string, number> | null,
 *   deoptimized: { count: number, byCategory: Record<string, number> } | null, threadCpuMs: { mainMs: number, othersMs: number } | null } |
 *   null} totals
 * @property {DeoptGroup[] | null} deoptimizations
 */

/** @param {string} reason @returns {PhaseRuntimeEvents} */
export function noRuntimeEvents (reason) {
  return { source: null, describes: null, reason, windows: null, totals: null, deoptimizations: null }
}

/**
 * @param {import('./runtime-event-sources.js').RuntimeEventSource} source
 * @param {import('./runtime-event-sources.js').RuntimeEvents} events on the epoch clock
 * @param {{ startedAtMs: number, windows: { startMs: number, durationMs: number }[],
 *   eventLoopSamples: import('../../platform/resources/event-loop-samples.js').EventLoopSample[], eventLoopIntervalMs: number | null,
 *   threadCpuSamples?: import('./thread-cpu-sampler.js').ThreadCpuSample[] | null }} phase startedAtMs: epoch ms the windows' startMs
 *   count from; eventLoopSamples: their tMs on the epoch clock; threadCpuSamples: null when the source reads no threads
 * @returns {PhaseRuntimeEvents}
 */
export function phaseRuntimeEvents (
  source,
  events,
  { startedAtMs, windows, eventLoopSamples, eventLoopIntervalMs, threadCpuSamples = null }
) {
  if (events.refused) return { ...noRuntimeEvents(`not read: ${events.refused}`), source: source.name, describes: source.describes }
  const bounds = windows.map((window) => [startedAtMs + window.startMs, startedAtMs + window.startMs + window.durationMs])
  const windowOf = (/** @type {number} */ atMs) =>
    Number.isFinite(atMs) ? bounds.findIndex(([from, to]) => atMs >= from && atMs < to) : -1
  const emptyGc = () => tallyOf(source.gcKinds.map((kind) => [kind, { count: 0, pauseMs: 0 }]))
  const emptyTiers = () => (source.tiers ? tallyOf(source.tiers.map((tier) => [tier, 0])) : null)
  /** @type {RuntimeWindow[]} */
  const cut = windows.map((window) => ({
    startMs: window.startMs,
    gc: emptyGc(),
    optimized: emptyTiers(),
    deoptimized: source.deopts ? { count: 0, byCategory: tallyOf() } : null,
    eventLoopDelay: null,
    threadCpuMs: threadCpu(threadCpuSamples, startedAtMs + window.startMs, startedAtMs + window.startMs + window.durationMs)
  }))
  for (const event of events.gc) {
    const index = windowOf(event.atMs)
    if (index === -1 || !Number.isFinite(event.pauseMs) || event.pauseMs < 0) continue
    const kind = source.gcKinds.includes(event.kind) ? event.kind : OTHER_GC_KIND
    const tally = (cut[index].gc[kind] ??= { count: 0, pauseMs: 0 })
    tally.count += 1
    tally.pauseMs += event.pauseMs
  }
  for (const event of events.optimized) {
    const index = windowOf(event.atMs)
    const tiers = index === -1 ? null : cut[index].optimized
    if (tiers && source.tiers?.includes(event.tier)) tiers[event.tier] += 1
  }
  /** @type {Map<string, DeoptGroup>} */
  const groups = new Map()
  for (const event of events.deopts) {
    const index = windowOf(event.atMs)
    const deoptimized = index === -1 ? null : cut[index].deoptimized
    if (!deoptimized || !CATEGORIES.has(event.category)) continue
    deoptimized.count += 1
    deoptimized.byCategory[event.category] = (deoptimized.byCategory[event.category] ?? 0) + 1
    const key = `${event.fn}\0${event.position}\0${event.reason}`
    const group = groups.get(key)
    if (group) group.count += 1
    else {
      groups.set(key, {
        fn: event.fn,
        position: event.position,
        kind: event.kind,
        category: event.category,
        reason: event.reason,
        count: 1,
        firstMs: roundTo(event.atMs - startedAtMs, 1)
      })
    }
  }
  if (eventLoopIntervalMs !== null) {
    for (const sample of eventLoopSamples) {
      // A sample covers the interval that ends at its tMs: it belongs to the window that holds the interval's middle.
      const index = windowOf(sample.tMs - eventLoopIntervalMs / 2)
      if (index !== -1) cut[index].eventLoopDelay = { meanMs: sample.meanMs, p99Ms: sample.p99Ms, maxMs: sample.maxMs }
    }
  }
  for (const window of cut) {
    for (const tally of Object.values(window.gc)) tally.pauseMs = roundTo(tally.pauseMs, 3)
  }
  return {
    source: source.name,
    describes: source.describes,
    reason: null,
    windows: cut,
    totals: runtimeTotals(cut),
    deoptimizations: source.deopts ? [...groups.values()].sort((a, b) => b.count - a.count).slice(0, KEPT_DEOPT_GROUPS) : null
  }
}

/**
 * The sums of some windows (a phase, or the part of a series before or after a change point).
 * @param {RuntimeWindow[]} windows
 * @returns {NonNullable<PhaseRuntimeEvents['totals']>}
 */
export function runtimeTotals (windows) {
  /** @type {Record<string, GcTally>} */
  const gc = tallyOf()
  /** @type {Record<string, number> | null} */
  let optimized = null
  /** @type {{ count: number, byCategory: Record<string, number> } | null} */
  let deoptimized = null
  /** @type {{ mainMs: number, othersMs: number } | null} */
  let threadCpuMs = null
  for (const window of windows) {
    if (window.threadCpuMs) {
      threadCpuMs ??= { mainMs: 0, othersMs: 0 }
      threadCpuMs.mainMs = roundTo(threadCpuMs.mainMs + window.threadCpuMs.mainMs, 1)
      threadCpuMs.othersMs = roundTo(threadCpuMs.othersMs + window.threadCpuMs.othersMs, 1)
    }
    for (const [kind, tally] of Object.entries(window.gc)) {
      const sum = gc[kind] ??= { count: 0, pauseMs: 0 }
      sum.count += tally.count
      sum.pauseMs = roundTo(sum.pauseMs + tally.pauseMs, 3)
    }
    if (window.optimized) {
      optimized ??= tallyOf()
      for (const [tier, count] of Object.entries(window.optimized)) optimized[tier] = (optimized[tier] ?? 0) + count
    }
    if (window.deoptimized) {
      deoptimized ??= { count: 0, byCategory: tallyOf() }
      deoptimized.count += window.deoptimized.count
      for (const [category, count] of Object.entries(window.deoptimized.byCategory)) {
        deoptimized.byCategory[category] = (deoptimized.byCategory[category] ?? 0) + count
      }
    }
  }
  return { gc, optimized, deoptimized, threadCpuMs }
}

/**
 * @param {import('./thread-cpu-sampler.js').ThreadCpuSample[] | null} samples @param {number} fromMs @param {number} toMs
 * @returns {{ mainMs: number, othersMs: number } | null}
 */
function threadCpu (samples, fromMs, toMs) {
  const between = samples ? threadCpuBetween(samples, fromMs, toMs) : null
  // The counters move in clock ticks (10 ms) and the two are read a moment apart: a window's difference can come out a tick below zero.
  return between && { mainMs: roundTo(Math.max(0, between.mainMs), 1), othersMs: roundTo(Math.max(0, between.othersMs), 1) }
}

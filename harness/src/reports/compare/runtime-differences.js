// @ts-check
// What the runtime did differently on the two sides of a cell whose level changed, from each run's measure phase
// (runtime-events/phase-runtime-events.js): its events per second of load on each side (functions optimised by tier, deoptimised by
// category, collections by kind with the share of the time they paused the program), and the groups of deoptimisations (function,
// position, reason) that one side had and the other did not: a route handler deoptimised in one run and not in the other is where to
// look first.
import { roundTo } from '../../platform/util/numbers.js'

/** The deoptimisation groups listed each way, most frequent first. */
export const LISTED_DEOPT_GROUPS = 10

/**
 * @typedef {import('./read-inputs.js').SourcedRecord} SourcedRecord
 * @typedef {import('../../subjects/runtime-events/phase-runtime-events.js').PhaseRuntimeEvents} PhaseRuntimeEvents
 * @typedef {import('../../records/comparison-record.js').RuntimeRates} RuntimeRates
 * @typedef {import('../../records/comparison-record.js').DeoptGroupSeen} DeoptGroupSeen
 * @typedef {import('../../records/comparison-record.js').DeoptDifferences} DeoptDifferences
 * @typedef {import('../../records/comparison-record.js').LevelChange} LevelChange
 * @typedef {import('../../records/comparison-record.js').RuntimeDifferences} RuntimeDifferences
 */

/** @typedef {PhaseRuntimeEvents & { totals: NonNullable<PhaseRuntimeEvents['totals']> }} EventsWithTotals */
/** @typedef {{ runs: { events: EventsWithTotals, loadSec: number }[] }} EventsSide */

/**
 * The runtime events of a cell's two sides, compared; null when no run of either side recorded any (results written before dyno
 * recorded runtime events): such a comparison reads as it did before.
 * @param {{ baseline: SourcedRecord[], candidate: SourcedRecord[] }} cell
 * @param {LevelChange} levelChange
 * @returns {RuntimeDifferences | null}
 */
export function runtimeDifferences (cell, levelChange) {
  if (![...cell.baseline, ...cell.candidate].some(({ record }) => record.summary?.runtimeEvents !== undefined)) return null
  const sides = /** @type {const} */ (['baseline', 'candidate'])
  const missing = sides.flatMap((side) => {
    const lacking = cell[side].find(({ record }) => !record.summary?.runtimeEvents?.totals)
    if (!lacking) return []
    const reason = lacking.record.summary?.runtimeEvents?.reason ?? 'the result was written before dyno recorded runtime events'
    return [`the ${side} has no runtime events: ${reason} (${lacking.file})`]
  })
  if (missing.length > 0) return { levelChange, reason: missing.join('; '), baseline: null, candidate: null, deoptimizations: null }
  const [baseline, candidate] = sides.map((side) => ({
    runs: cell[side].map(({ record }) => ({
      events: /** @type {EventsSide['runs'][number]['events']} */ (record.summary?.runtimeEvents),
      loadSec: record.summary?.durationSec ?? 0
    }))
  }))
  return {
    levelChange,
    reason: null,
    baseline: ratesOf(baseline),
    candidate: ratesOf(candidate),
    deoptimizations: deoptDifferences(baseline, candidate)
  }
}

/** @param {EventsSide} side @returns {RuntimeRates} */
function ratesOf ({ runs }) {
  const loadSec = runs.reduce((sum, run) => sum + run.loadSec, 0)
  const perSec = (/** @type {number} */ count) => loadSec > 0 ? roundTo(count / loadSec, 2) : 0
  /**
   * @type {(pick: (totals: EventsSide['runs'][number]['events']['totals']) => Record<string, number> | null | undefined)
   *   => Record<string, number> | null}
   */
  const summed = (pick) => {
    const each = runs.map((run) => pick(run.events.totals))
    if (each.some((counts) => !counts)) return null
    /** @type {Record<string, number>} */
    const sums = {}
    for (const counts of each) for (const [key, count] of Object.entries(counts ?? {})) sums[key] = (sums[key] ?? 0) + count
    return sums
  }
  const optimized = summed((totals) => totals.optimized)
  const deoptimized = summed((totals) => totals.deoptimized?.byCategory)
  const collections = /** @type {Record<string, number>} */ (summed((totals) => mapValues(totals.gc, (tally) => tally.count)))
  const pausedMs = /** @type {Record<string, number>} */ (summed((totals) => mapValues(totals.gc, (tally) => tally.pauseMs)))
  return {
    source: runs[0].events.source ?? 'unknown',
    loadSec: roundTo(loadSec, 3),
    optimizedPerSec: optimized && mapValues(optimized, perSec),
    deoptimized: deoptimized && {
      perSec: perSec(runs.reduce((sum, run) => sum + (run.events.totals.deoptimized?.count ?? 0), 0)),
      byCategoryPerSec: mapValues(deoptimized, perSec)
    },
    collections: mapValues(collections, (count, kind) => ({
      perSec: perSec(count),
      pausePct: loadSec > 0 ? roundTo(100 * pausedMs[kind] / (loadSec * 1000), 2) : 0
    }))
  }
}

/**
 * @param {EventsSide} baseline @param {EventsSide} candidate
 * @returns {DeoptDifferences | null}
 */
function deoptDifferences (baseline, candidate) {
  const [inBaseline, inCandidate] = [groupsOf(baseline), groupsOf(candidate)]
  if (!inBaseline || !inCandidate) return null
  const only = (/** @type {Map<string, DeoptGroupSeen>} */ mine, /** @type {Map<string, DeoptGroupSeen>} */ theirs) => [...mine]
    .filter(([key]) => !theirs.has(key)).map(([, group]) => group)
    .sort((a, b) => b.count - a.count || a.fn.localeCompare(b.fn) || a.position.localeCompare(b.position))
  const [onlyBaseline, onlyCandidate] = [only(inBaseline, inCandidate), only(inCandidate, inBaseline)]
  return {
    onlyInBaseline: onlyBaseline.slice(0, LISTED_DEOPT_GROUPS),
    onlyInCandidate: onlyCandidate.slice(0, LISTED_DEOPT_GROUPS),
    notListedBaseline: Math.max(0, onlyBaseline.length - LISTED_DEOPT_GROUPS),
    notListedCandidate: Math.max(0, onlyCandidate.length - LISTED_DEOPT_GROUPS)
  }
}

/**
 * @param {EventsSide} side
 * @returns {Map<string, DeoptGroupSeen> | null} by function, position and reason, over the side's runs; null: the runtime reports no
 *   deoptimisations
 */
function groupsOf ({ runs }) {
  if (runs.some((run) => !run.events.deoptimizations)) return null
  /** @type {Map<string, DeoptGroupSeen>} */
  const groups = new Map()
  for (const run of runs) {
    for (const group of run.events.deoptimizations ?? []) {
      const key = JSON.stringify([group.fn, group.position, group.reason])
      const seen = groups.get(key)
      if (seen) {
        seen.count += group.count
        seen.runs += 1
      } else {
        groups.set(key, {
          fn: group.fn,
          position: group.position,
          reason: group.reason,
          category: group.category,
          count: group.count,
          runs: 1
        })
      }
    }
  }
  return groups
}

/**
 * @template T, U
 * @param {Record<string, T>} object @param {(value: T, key: string) => U} map
 * @returns {Record<string, U>}
 */
const mapValues = (object, map) => Object.fromEntries(Object.entries(object).map(([key, value]) => [key, map(value, key)]))

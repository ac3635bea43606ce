// @ts-check
import { planRuns } from './plan-runs.js'
import { planIdentity, planOptionsOf, splitByExpectedTime } from './split-plan.js'

/**
 * @typedef {{ index: number, count: number }} ShardSpec the K-th of N parts of a run's plan (`--shard K/N`), 1 ≤ K ≤ N
 * @typedef {{ sut: string, runtime: string, scenario: string, connections: number, repeat: number, file: string, position: number }}
 *   PlannedEntry a planned run as run.json lists it (position: in the whole plan)
 * @typedef {object} PlanParts a run's whole plan, its identity and its parts
 * @property {string} id the plan's identity (split-plan.js): the same in every part
 * @property {import('./plan-runs.js').PlannedRun[]} whole every planned run, in run order
 * @property {number} expectedSec of the whole plan, one cell at a time
 * @property {{ units: import('./plan-runs.js').PlannedRun[], expectedSec: number }[]} parts one, or `--shard`'s N
 * @property {{ units: import('./plan-runs.js').PlannedRun[], expectedSec: number }} mine the part this run carries out
 */

/** @param {import('./plan-runs.js').PlannedRun} entry @returns {PlannedEntry} */
export function plannedEntry ({ sut, scenario, connections, repeat, file, position }) {
  return { sut: sut.label, runtime: sut.runtime.name, scenario: scenario.name, connections, repeat, file, position }
}

/**
 * The plan of a run and the part of it `--shard K/N` gives this run (all of it without one).
 * @param {{ suts: import('../../subjects/suts/resolve-subjects.js').Subject[], scenarios: import('@dyno/scenarios').Scenario[],
 *   measure: import('../../measures/measure.js').Measure }} subjects measure: how its cells are measured, which says how long one takes
 *   (from the plan alone: never from this machine's history, so that every job of a CI matrix draws the same parts)
 * @param {import('../prepare-run.js').RunValues} options its levels, rounds, seed and shard, and the options that are its identity
 * @param {{ settings: import('../../platform/options/option-values.js').PlanValues, planFields: Set<string> }} decided settings: what
 *   the measure reads a cell's length from; planFields: the options that decide what the plan measures (split-plan.js)
 * @returns {PlanParts}
 */
export function planParts ({ suts, scenarios, measure }, options, { settings, planFields }) {
  const { connections, repeats, seed } = options
  const shard = options.shard ?? null
  const whole = planRuns({ suts, scenarios, connections, repeats, seed })
  const id = planIdentity(whole.map(plannedEntry), planOptionsOf(options, planFields))
  // A block stays whole in one part, so that its SUTs are measured on one machine within seconds of each other.
  /** @type {Map<string, import('./plan-runs.js').PlannedRun[]>} */
  const blocks = new Map()
  for (const entry of whole) blocks.set(entry.block, [...(blocks.get(entry.block) ?? []), entry])
  const cellSec = (/** @type {import('./plan-runs.js').PlannedRun} */ entry) => measure.plan.cellSec(entry.scenario, settings)
  const blockSec = (/** @type {import('./plan-runs.js').PlannedRun[]} */ block) => block.reduce((sum, entry) => sum + cellSec(entry), 0)
  const parts = splitByExpectedTime([...blocks.values()], shard?.count ?? 1, blockSec)
    .map(({ units, expectedSec }) => ({ units: units.flat().sort((a, b) => a.position - b.position), expectedSec }))
  const expectedSec = Math.round(parts.reduce((sum, part) => sum + part.expectedSec, 0) * 10) / 10
  return { id, whole, expectedSec, parts, mine: parts[(shard?.index ?? 1) - 1] }
}

/**
 * What run.json records of the plan: its identity and size, and the part this run is.
 * @param {PlanParts} plan @param {ShardSpec | null} shard
 */
export function planRecord (plan, shard) {
  return {
    id: plan.id,
    cells: plan.whole.length,
    expectedSec: plan.expectedSec,
    shard: shard ? { index: shard.index, count: shard.count, cells: plan.mine.units.length, expectedSec: plan.mine.expectedSec } : null
  }
}

// @ts-check
// compare-commits split into parts (`--shard K/N`): each part runs every round of both commits for its share of the
// (SUT, scenario) pairs, on one machine, so that the pairs of a round stay side by side. A part's share is given to each round's
// `dyno run` as `--frameworks` and `--scenarios`, which every commit's harness takes, so a part works against a base from before
// `--shard` existed. Whole SUTs go to a part where that balances as well (one `dyno run` per round and side); otherwise pairs.
import { planIdentity, splitByExpectedTime } from '../../suite/plan/split-plan.js'

/** How much longer than the finest split a split by whole SUTs may make the longest part and still be chosen. */
const WHOLE_SUT_SLACK = 1.1

/**
 * @typedef {{ frameworks: string[], scenarios: string[] }} RunSubset what one `dyno run` of a round covers
 * @typedef {{ subsets: RunSubset[], cells: number, expectedSec: number }} ComparisonPart
 * @typedef {object} ComparisonPlan
 * @property {string} id the identity of the whole comparison's plan (split-plan.js)
 * @property {number} cells (SUT, scenario, connections, runtime) cells, each run every round on both commits
 * @property {number} expectedSec of the whole comparison, one cell at a time
 * @property {ComparisonPart[]} parts
 */

/**
 * @param {{ frameworks: string[], scenarios: string[], runtimes: string[], connections: number[], rounds: number, count: number,
 *   settings: import('../../platform/options/option-values.js').PlanValues, measure: import('../../measures/measure.js').Measure,
 *   options: Record<string, unknown>, catalogue: import('@dyno/scenarios').Scenario[] }} request measure: how its cells are measured,
 *   which says how long one takes (from settings); options: those that decide what is measured (split-plan.js planDeciding); catalogue:
 *   the scenarios the names are of (the contract's, or a service's)
 * @returns {ComparisonPlan}
 */
export function splitComparison ({ frameworks, scenarios, runtimes, connections, rounds, count, settings, measure, options, catalogue }) {
  const levels = connections.length * runtimes.length
  const pairs = frameworks.flatMap((sut) => scenarios.map((scenario) => ({ sut, scenario })))
  const cellSec = new Map(scenarios.map((name) => [name, measure.plan.cellSec(scenarioNamed(catalogue, name), settings)]))
  const pairSec = (/** @type {{ scenario: string }} */ pair) => (cellSec.get(pair.scenario) ?? 0) * levels * rounds * 2
  const byPair = splitByExpectedTime(pairs, count, pairSec)
  const bySut = splitByExpectedTime(frameworks, count, (sut) =>
    pairs.filter((pair) => pair.sut === sut).reduce((sum, pair) => sum + pairSec(pair), 0)
  )
  const longest = (/** @type {{ expectedSec: number }[]} */ parts) => Math.max(...parts.map((part) => part.expectedSec))
  const wholeSuts = longest(bySut) <= longest(byPair) * WHOLE_SUT_SLACK
  const parts = wholeSuts
    ? bySut.map((part) => ({ units: pairs.filter((pair) => part.units.includes(pair.sut)), expectedSec: part.expectedSec }))
    : byPair
  return {
    id: planIdentity(pairs, options),
    cells: pairs.length * levels,
    expectedSec: Math.round(parts.reduce((sum, part) => sum + part.expectedSec, 0) * 10) / 10,
    parts: parts.map((part) => ({
      subsets: runSubsets(part.units, scenarios),
      cells: part.units.length * levels,
      expectedSec: part.expectedSec
    }))
  }
}

/**
 * The `dyno run`s that cover a part's pairs: one per set of SUTs that share the same scenarios.
 * @param {{ sut: string, scenario: string }[]} pairs @param {string[]} scenarios in the order the user gave them
 * @returns {RunSubset[]}
 */
function runSubsets (pairs, scenarios) {
  /** @type {Map<string, RunSubset>} */
  const subsets = new Map()
  for (const sut of [...new Set(pairs.map((pair) => pair.sut))]) {
    const own = scenarios.filter((scenario) => pairs.some((pair) => pair.sut === sut && pair.scenario === scenario))
    const key = own.join(',')
    const subset = subsets.get(key) ?? { frameworks: [], scenarios: own }
    subset.frameworks.push(sut)
    subsets.set(key, subset)
  }
  return [...subsets.values()]
}

/**
 * @param {import('@dyno/scenarios').Scenario[]} catalogue @param {string} name a scenario `--scenarios` accepted
 * @returns {import('@dyno/scenarios').Scenario}
 */
function scenarioNamed (catalogue, name) {
  const scenario = catalogue.find((candidate) => candidate.name === name)
  if (!scenario) throw new Error(`no scenario ${name}`)
  return scenario
}

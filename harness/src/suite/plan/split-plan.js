// @ts-check
// A plan split into parts for machines that run at once (a CI matrix): every part computed from the plan alone, so that
// each job, given the same options at the same commit, draws the same parts without talking to the others.
import { createHash } from 'node:crypto'

/**
 * Splits units into `count` parts of nearly equal expected time: the most expensive unit first, each to the part with the
 * least time so far (the lowest-numbered on a tie). Each part keeps its units in the order given, and every unit is in
 * exactly one part.
 * @template T
 * @param {T[]} units
 * @param {number} count parts
 * @param {(unit: T) => number} expectedSec
 * @returns {{ units: T[], expectedSec: number }[]}
 */
export function splitByExpectedTime (units, count, expectedSec) {
  const costs = units.map(expectedSec)
  const order = [...units.keys()].sort((a, b) => costs[b] - costs[a] || a - b)
  const loads = Array.from({ length: count }, () => 0)
  const owner = Array.from({ length: units.length }, () => 0)
  for (const position of order) {
    let lightest = 0
    for (let part = 1; part < count; part++) if (loads[part] < loads[lightest] - 1e-9) lightest = part
    owner[position] = lightest
    loads[lightest] += costs[position]
  }
  return loads.map((load, part) => ({
    units: units.filter((unit, position) => owner[position] === part),
    expectedSec: Math.round(load * 10) / 10
  }))
}

/**
 * Of a command's options, those that decide what its plan measures.
 * @param {Record<string, unknown>} options @param {Set<string>} planFields their fields (cli/parse-command-line.js)
 * @returns {Record<string, unknown>}
 */
export const planDeciding = (options, planFields) => Object.fromEntries(Object.entries(options).filter(([field]) => planFields.has(field)))

/**
 * The identity of a plan: a hash of every planned entry and of the options that decide what is measured (those the option table
 * does not mark `partOfPlan: false`: planDeciding). Two parts merge only when they carry the same identity.
 * @param {unknown[]} planned the whole plan, as run.json lists it
 * @param {Record<string, unknown>} options the options that decide what is measured
 * @returns {string}
 */
export function planIdentity (planned, options) {
  const measured = Object.fromEntries(Object.entries(options).sort(([a], [b]) => a.localeCompare(b)))
  return createHash('sha256').update(JSON.stringify({ planned, options: measured })).digest('hex').slice(0, 16)
}

/**
 * The options that decide what a run's plan measures (its identity), with each host as the user named it: the same from `--plan` as
 * from the run, on every machine of a matrix.
 * @param {import('../prepare-run.js').RunValues} options @param {Set<string>} planFields @returns {Record<string, unknown>}
 */
export function planOptionsOf (options, planFields) {
  return planDeciding({
    ...options,
    sutHost: options.sutHost?.url ?? null,
    loadHosts: options.loadHosts?.map((target) => target.url) ?? null
  }, planFields)
}

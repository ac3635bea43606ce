// @ts-check
import { SCENARIOS } from '@dyno/scenarios'
import { DynoError } from '../../platform/errors.js'

/**
 * @typedef {import('./read-inputs.js').SourcedRecord} SourcedRecord
 * @typedef {object} MatchedCell one (SUT, scenario, connections) with the repeats of each side
 * @property {string} sut the SUT's label (its name, with the runtime when a run set runtimes side by side)
 * @property {string} scenario
 * @property {number} connections
 * @property {SourcedRecord[]} baseline in repeat order; empty when only the candidate has the cell
 * @property {SourcedRecord[]} candidate
 */

/** @param {import('../../records/result-record.js').ResultRecord} record */
export const sutLabel = (record) => record.sut.label ?? record.sut.name

/** @param {SourcedRecord[]} records */
function byCell (records) {
  /** @type {Map<string, SourcedRecord[]>} */
  const cells = new Map()
  for (const sourced of records) {
    const key = JSON.stringify([sutLabel(sourced.record), sourced.record.scenario.name, sourced.record.load.connections])
    cells.set(key, [...(cells.get(key) ?? []), sourced])
  }
  for (const group of cells.values()) group.sort((a, b) => (a.record.repeat?.index ?? 0) - (b.record.repeat?.index ?? 0))
  return cells
}

/** Where a scenario stands in the registry: rows follow it, not the order in which a run's cells ended. */
const scenarioRank = (/** @type {string} */ name) => {
  const index = SCENARIOS.findIndex((scenario) => scenario.name === name)
  return index === -1 ? SCENARIOS.length : index
}

/**
 * @param {string} a @param {string} b cell keys, JSON [sut, scenario, connections]
 * @returns {number} by SUT, then scenario in the registry's order, then connections
 */
function cellOrder (a, b) {
  const [sutA, scenarioA, connectionsA] = JSON.parse(a)
  const [sutB, scenarioB, connectionsB] = JSON.parse(b)
  return sutA.localeCompare(sutB) || scenarioRank(scenarioA) - scenarioRank(scenarioB) || scenarioA.localeCompare(scenarioB) ||
    connectionsA - connectionsB
}

/**
 * Pairs the two sides by (SUT, scenario, connections), ordered by SUT, scenario and connections (cells of counts made at once
 * end in any order). A cell on one side only is kept (reported as not comparable); two sides with no cell in common cannot be
 * compared at all.
 * @param {import('./read-inputs.js').Side} baseline
 * @param {import('./read-inputs.js').Side} candidate
 * @returns {MatchedCell[]}
 */
export function matchResults (baseline, candidate) {
  const baseCells = byCell(baseline.records)
  const candidateCells = byCell(candidate.records)
  const common = [...baseCells.keys()].filter((key) => candidateCells.has(key))
  if (common.length === 0) {
    throw new DynoError(
      'DYNO_ERR_COMPARE_DISJOINT',
      'the baseline and the candidate have no (SUT, scenario, connections) in common: ' +
        `baseline ${describe(baseline.records)} (${baseline.paths.join(', ')}); candidate ` +
          `${describe(candidate.records)} (${candidate.paths.join(', ')})`
    )
  }
  const keys = [...new Set([...baseCells.keys(), ...candidateCells.keys()])].sort(cellOrder)
  return keys.map((key) => {
    const [sut, scenario, connections] = JSON.parse(key)
    return { sut, scenario, connections, baseline: baseCells.get(key) ?? [], candidate: candidateCells.get(key) ?? [] }
  })
}

/** @param {SourcedRecord[]} records @returns {string} e.g. `SUTs fastify, koa × scenarios json × connections 100` */
function describe (records) {
  const distinct = (/** @type {(record: import('../../records/result-record.js').ResultRecord) => string | number} */ pick) =>
    [...new Set(records.map(({ record }) => pick(record)))].join(', ')
  return `SUTs ${distinct(sutLabel)} × scenarios ${distinct((record) => record.scenario.name)} × connections ` +
    `${distinct((record) => record.load.connections)}`
}

// @ts-check
// A run's results by scenario, then by (SUT, connections) with their aggregate, fastest first: the rows of report.md's tables, the
// overview and the README's reference table.
import { rankedFigure } from '../../../records/rank-text.js'
import { contractPlace } from '../../../records/scenario-order.js'

/**
 * @typedef {import('../../../records/aggregate-runs.js').Aggregate} Aggregate
 * @typedef {object} ReportRow one SUT at one connection level in one scenario
 * @property {string} sut
 * @property {string} version
 * @property {number} connections
 * @property {import('../../../records/aggregate-runs.js').Aggregate | null} aggregate null when no run was ok
 * @property {import('../../../records/result-record.js').ResultRecord[]} records
 */

/**
 * Groups a run's records by scenario, then by (SUT, connections), with their aggregate; each scenario's rows by connection
 * level, best first (by the figure each cell was ranked on, the geometric mean of its runs: the fastest, or the cheapest where the run
 * was ranked on cost), the cells never measured last.
 * @param {import('../../../records/read-run.js').RunData} run
 * @returns {Map<string, ReportRow[]>}
 */
export function reportRows (run) {
  /** @type {Map<string, ReportRow[]>} */
  const scenarios = new Map()
  for (const record of run.records) {
    const rows = scenarios.get(record.scenario.name) ?? []
    scenarios.set(record.scenario.name, rows)
    let row = rows.find((candidate) => candidate.sut === record.sut.label && candidate.connections === record.load.connections)
    if (!row) {
      const aggregate = run.aggregates.find((entry) =>
        entry.sut === record.sut.label && entry.scenario === record.scenario.name && entry.connections === record.load.connections)
      row = {
        sut: record.sut.label,
        version: record.sut.frameworkVersion ?? '-',
        connections: record.load.connections,
        aggregate: aggregate && aggregate.runs > 0 ? aggregate : null,
        records: []
      }
      rows.push(row)
    }
    row.records.push(record)
  }
  for (const rows of scenarios.values()) {
    rows.sort((a, b) => a.connections - b.connections || betterFirst(a.aggregate, b.aggregate) ||
      (a.aggregate?.rank?.best ?? 0) - (b.aggregate?.rank?.best ?? 0))
  }
  // In the contract's order, whatever order shuffled rounds measured them in.
  return new Map([...scenarios].sort(([a], [b]) => contractPlace(a) - contractPlace(b)))
}

/**
 * @param {Aggregate | null} a @param {Aggregate | null} b
 * @returns {number} below 0 when a's figure is better than b's; a cell without a figure after every other
 */
function betterFirst (a, b) {
  if (!a || !b) return (a ? 0 : 1) - (b ? 0 : 1)
  const [first, second] = [rankedFigure(a), rankedFigure(b)]
  if (first.better !== second.better) return 0
  return first.better === 'lower' ? first.center - second.center : second.center - first.center
}

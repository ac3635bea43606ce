// @ts-check
// A run's results by scenario, then by (SUT, connections) with their aggregate, fastest first: the rows of report.md's tables, the
// overview and the README's reference table.
import { contractPlace } from '../../../records/scenario-order.js'

/**
 * @typedef {object} ReportRow one SUT at one connection level in one scenario
 * @property {string} sut
 * @property {string} version
 * @property {number} connections
 * @property {import('../../../records/aggregate-runs.js').Aggregate | null} aggregate null when no run was ok
 * @property {import('../../../records/result-record.js').ResultRecord[]} records
 */

/**
 * Groups a run's records by scenario, then by (SUT, connections), with their aggregate; each scenario's rows by connection
 * level, fastest first (by the figure of each cell, the geometric mean of its runs), the cells never measured last.
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
    rows.sort((a, b) => a.connections - b.connections ||
      (b.aggregate?.requestsPerSec.center ?? -1) - (a.aggregate?.requestsPerSec.center ?? -1) ||
      (a.aggregate?.rank?.best ?? 0) - (b.aggregate?.rank?.best ?? 0))
  }
  // In the contract's order, whatever order shuffled rounds measured them in.
  return new Map([...scenarios].sort(([a], [b]) => contractPlace(a) - contractPlace(b)))
}

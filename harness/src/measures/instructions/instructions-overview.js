// @ts-check
// The instructions measure's overview (../overview.js): each framework's instructions per request in each scenario, fewest first. A count
// answers the question a glance asks of this measure (which framework does the least work per request) as well as req/s answers it of the
// wall clock, so it has an overview of its own; it has no rank groups (one count per cell, its windows' spread is in each scenario's table)
// and no marks (no load generator to be bound by, no other process to be disturbed by: a count does not depend on what runs beside it).
import { BEST_FIRST_ORDER, bestFirst, columnShades } from '../overview.js'
import { contractPlace } from '../../records/scenario-order.js'

/** @param {import('../../records/result-record.js').ResultRecord} record @returns {number | null} */
const perRequest = (record) => record.status === 'ok' && record.instructions?.windows.length
  ? record.instructions.instructionsPerRequest
  : null

/**
 * @param {import('../../records/read-run.js').RunData} run
 * @returns {import('../overview.js').Overview | null} null for a run without results
 */
export function instructionsOverview (run) {
  if (run.records.length === 0) return null
  const columns = [...new Set(run.records.map((record) => record.scenario.name))].sort((a, b) => contractPlace(a) - contractPlace(b))
  /** @type {Map<string, import('../overview.js').OverviewRow>} */
  const frameworks = new Map()
  for (const [at, scenario] of columns.entries()) {
    const records = run.records.filter((record) => record.scenario.name === scenario)
    const shades = columnShades(records.map(perRequest), 'lower')
    records.forEach((record, index) => {
      const name = record.sut.label ?? record.sut.name
      const row = frameworks.get(name) ?? { framework: name, version: record.sut.frameworkVersion ?? '-', cells: columns.map(() => null) }
      frameworks.set(name, row)
      row.cells[at] = { value: perRequest(record), status: record.status, group: null, shade: shades[index], marks: [] }
    })
  }
  return {
    unit: 'instructions/req',
    better: 'lower',
    columns,
    rows: bestFirst([...frameworks.values()], 'lower'),
    marks: [],
    order: `Frameworks ${BEST_FIRST_ORDER.replace('best figures', 'fewest')}.`,
    groups: 'Instructions per request over every counted window, one count per cell: no rank groups (the spread of its windows is in ' +
      'each scenario\'s table).',
    caveats: []
  }
}

// @ts-check
import { formatInteger, formatMs } from '../../platform/text/format.js'
import { byCenter, intervalText, rankNotes, rankText } from '../../records/rank-text.js'
import { createTable } from '../../platform/text/table.js'
import { contractPlace } from '../../records/scenario-order.js'

/**
 * The statistics of repeated runs, one table per (scenario, connections), fastest first: each cell's rank group, its figure
 * (the geometric mean of its rounds) with the 95% interval, its rounds, and latency percentiles from the merged histograms;
 * under each table the spread between rounds and the neighbours the data cannot tell apart.
 * @param {import('../../records/aggregate-runs.js').Aggregate[]} aggregates
 */
export function formatAggregateTable (aggregates) {
  /** @type {Map<string, import('../../records/aggregate-runs.js').Aggregate[]>} */
  const scenarios = new Map()
  for (const aggregate of aggregates) {
    const key = `${aggregate.scenario}, ${aggregate.connections} connections`
    scenarios.set(key, [...(scenarios.get(key) ?? []), aggregate])
  }
  const inContractOrder = [...scenarios].sort(
    ([, [a]], [, [b]]) => contractPlace(a.scenario) - contractPlace(b.scenario) || a.connections - b.connections
  )
  const sections = inContractOrder.map(([title, cells]) => {
    const table = createTable(['rank', 'framework', 'req/s', '95% interval', 'rounds', 'p50 ms', 'p99 ms'], {
      alignRight: [0, 2, 3, 4, 5, 6]
    })
    const ordered = byCenter(cells)
    for (const aggregate of [...ordered, ...cells.filter((cell) => !ordered.includes(cell))]) {
      table.push([
        rankText(aggregate.rank),
        aggregate.sut,
        aggregate.rank ? formatInteger(aggregate.requestsPerSec.center) : '-',
        intervalText(aggregate.requestsPerSec.interval95),
        roundsText(aggregate),
        formatMs(aggregate.latencyMs?.p50),
        formatMs(aggregate.latencyMs?.p99)
      ])
    }
    return [title, table.toString(), ...rankNotes(cells).map((note) => `  ${note}`)].join('\n')
  })
  return `Repeats (geometric mean of the rounds, 95% interval, rank group; latency from their merged histograms)\n${sections.join('\n\n')}`
}

/** @param {import('../../records/aggregate-runs.js').Aggregate} aggregate */
function roundsText (aggregate) {
  const notes = [
    aggregate.excluded ? `+${aggregate.excluded} not ok` : '',
    aggregate.disturbedRuns ? `${aggregate.disturbedRuns} disturbed` : '',
    aggregate.disturbedLeftOut ? `+${aggregate.disturbedLeftOut} disturbed, left out` : ''
  ].filter(Boolean)
  return `${aggregate.runs}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`
}

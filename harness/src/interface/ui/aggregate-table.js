// @ts-check
import { formatInteger, formatMs } from '../../platform/text/format.js'
import { byCenter, intervalText, rankNotes, rankText } from '../../records/rank-text.js'
import { createTable } from '../../platform/text/table.js'
import { contractPlace } from '../../records/scenario-order.js'
import { exchangeOf, protocolText } from '../../records/result-protocol.js'

/**
 * The statistics of repeated runs, one table per (scenario, connections), fastest first: each cell's rank group, its figure
 * (the geometric mean of its rounds) with the 95% interval, its rounds, and latency percentiles from the merged histograms;
 * under each table the spread between rounds and the neighbours the data cannot tell apart. A scenario in another protocol than HTTP/1.1
 * in cleartext says in its title what the connections spoke (from its results), and a WebSocket's counts messages, latency per message.
 * @param {import('../../records/aggregate-runs.js').Aggregate[]} aggregates
 * @param {import('../../records/result-record.js').ResultRecord[]} [records] the run's results, for each scenario's protocol
 */
export function formatAggregateTable (aggregates, records = []) {
  /** @type {Map<string, import('../../records/aggregate-runs.js').Aggregate[]>} */
  const scenarios = new Map()
  for (const aggregate of aggregates) {
    const key = `${aggregate.scenario}, ${aggregate.connections} connections`
    scenarios.set(key, [...(scenarios.get(key) ?? []), aggregate])
  }
  const inContractOrder = [...scenarios].sort(
    ([, [a]], [, [b]]) => contractPlace(a.scenario) - contractPlace(b.scenario) || a.connections - b.connections
  )
  const sections = inContractOrder.map(([key, cells]) => {
    const results = records.filter(
      (record) => record.scenario.name === cells[0].scenario && record.load.connections === cells[0].connections
    )
    const spoken = results.find((record) => record.summary?.protocolNegotiated) ?? results[0]
    const title = spoken && spoken.scenario.protocol && spoken.scenario.protocol !== 'http1' ? `${key}, ${protocolText(spoken)}` : key
    const perMessage = spoken !== undefined && exchangeOf(spoken) === 'msg'
    const head = perMessage
      ? ['rank', 'framework', 'msg/s', '95% interval', 'rounds', 'p50 ms/msg', 'p99 ms/msg']
      : ['rank', 'framework', 'req/s', '95% interval', 'rounds', 'p50 ms', 'p99 ms']
    if (cells.some((aggregate) => aggregate.rankedBy === 'cost')) head[0] = 'rank on cost'
    const table = createTable(head, { alignRight: [0, 2, 3, 4, 5, 6] })
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

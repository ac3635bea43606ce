// @ts-check
import { formatInteger, formatMs } from './format.js'
import { createTable } from './table.js'

/**
 * The statistics of repeated runs: per (SUT, scenario, connections) the median req/s with its 95%
 * bootstrap interval and coefficient of variation, and latency percentiles from the merged histograms.
 * @param {import('../stats/aggregate-runs.js').Aggregate[]} aggregates
 */
export function formatAggregateTable (aggregates) {
  const table = createTable(['framework', 'scenario', 'conns', 'runs', 'median req/s', '95% CI', 'CV', 'p50 ms', 'p99 ms'], {
    alignRight: [2, 3, 4, 5, 6, 7, 8]
  })
  for (const aggregate of aggregates) {
    const { requestsPerSec: rate } = aggregate
    table.push([
      aggregate.sut,
      aggregate.scenario,
      String(aggregate.connections),
      `${aggregate.runs}${aggregate.excluded ? ` (+${aggregate.excluded} not ok)` : ''}`,
      formatInteger(rate.median),
      rate.ci95 ? `${formatInteger(rate.ci95[0])}–${formatInteger(rate.ci95[1])}` : '-',
      rate.cv === null ? '-' : `${(rate.cv * 100).toFixed(1)}%`,
      formatMs(aggregate.latencyMs?.p50),
      formatMs(aggregate.latencyMs?.p99)
    ])
  }
  return `Repeats (median of the runs; latency from their merged histograms)\n${table.toString()}`
}

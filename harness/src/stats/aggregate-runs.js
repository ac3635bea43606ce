// @ts-check
import { mean, median, sampleStandardDeviation } from 'simple-statistics'
import { mergedLatencyMs } from '../results/merge-histograms.js'
import { bootstrapMedianInterval } from './bootstrap.js'
import { roundTo } from '../util/numbers.js'

/**
 * @typedef {object} Aggregate the repeats of one (SUT, scenario, connections)
 * @property {string} sut
 * @property {string} scenario
 * @property {number} connections
 * @property {number} runs measured runs (status ok) that went in
 * @property {number} excluded runs of the cell that were not ok
 * @property {number[]} requestsPerSecRuns each run's req/s, in run order
 * @property {{ median: number, mean: number, ci95: [number, number] | null, cv: number | null }} requestsPerSec
 *   ci95: bootstrap interval of the median (null below 2 runs); cv: stdev / mean of the runs
 * @property {ReturnType<typeof mergedLatencyMs>} latencyMs from the merged histograms of the runs
 */

/**
 * Groups a run's records by (SUT, scenario, connections) and summarizes the ok ones.
 * @param {import('../results/result-record.js').ResultRecord[]} records
 * @param {{ seed: number }} options the bootstrap seed (the run's)
 * @returns {Aggregate[]}
 */
export function aggregateRuns (records, { seed }) {
  /** @type {Map<string, import('../results/result-record.js').ResultRecord[]>} */
  const cells = new Map()
  for (const record of records) {
    const key = JSON.stringify([record.sut.label, record.scenario.name, record.load.connections])
    cells.set(key, [...(cells.get(key) ?? []), record])
  }
  return [...cells.values()].map((group) => {
    const ok = group.filter((record) => record.status === 'ok' && record.summary)
    const rates = ok.map((record) => /** @type {NonNullable<typeof record.summary>} */ (record.summary).requestsPerSec.mean)
    const [first] = group
    return {
      sut: first.sut.label,
      scenario: first.scenario.name,
      connections: first.load.connections,
      runs: ok.length,
      excluded: group.length - ok.length,
      requestsPerSecRuns: rates,
      requestsPerSec: rates.length === 0
        ? { median: 0, mean: 0, ci95: null, cv: null }
        : {
            median: roundTo(median(rates), 1),
            mean: roundTo(mean(rates), 1),
            ci95: rates.length < 2 ? null : /** @type {[number, number]} */ (bootstrapMedianInterval(rates, { seed }).map((value) => roundTo(value, 1))),
            cv: rates.length < 2 ? null : roundTo(sampleStandardDeviation(rates) / mean(rates), 4)
          },
      latencyMs: ok.length === 0
        ? null
        : mergedLatencyMs(ok.map((record) => /** @type {NonNullable<typeof record.summary>} */ (record.summary).latencyHistogramUs))
    }
  })
}

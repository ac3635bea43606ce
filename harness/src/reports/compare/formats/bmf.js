// @ts-check
import { measureNamed } from '../../../measures/index.js'

/**
 * The candidate's figures in Bencher Metric Format, for `bencher run --adapter json --file …`:
 * `{ "<sut>/<scenario>/c<connections>": { "<measure>": { value, lower_value?, upper_value? } } }`.
 * Bencher keeps the history and runs its own thresholds, so this is the candidate's measurement, not the comparison. Each metric
 * of the results' measure that names a Bencher measure (its spec's `bmf`) is written under it in that measure's unit: req/s as
 * `throughput`, the p99 as `latency` in nanoseconds, instructions per request as `instructions` (the measure Bencher's own
 * instruction-count adapters create), capacity as `capacity`. The bounds are the 95% bootstrap interval of the median over the
 * repeats (or counted windows), omitted where there is none. Cells whose candidate has no valid measurement (a run not ok, or only
 * in the baseline) are left out.
 * @param {import('../../../records/comparison-record.js').Comparison} comparison
 * @returns {string}
 */
export function formatCompareBmf (comparison) {
  const { metrics } = measureNamed(comparison.settings.measure).comparison
  /** @type {Record<string, Record<string, { value: number, lower_value?: number, upper_value?: number }>>} */
  const benchmarks = {}
  for (const row of comparison.rows) {
    /** @type {Record<string, { value: number, lower_value?: number, upper_value?: number }>} */
    const measures = {}
    for (const [name, { bmf }] of Object.entries(metrics)) {
      const candidate = /** @type {import('../../../records/comparison-record.js').MetricRow | null | undefined} */ (
        /** @type {Record<string, unknown>} */ (row)[name]
      )?.candidate
      if (bmf && candidate) measures[bmf.measure] = metric(candidate.median, candidate.ci95, bmf.scale)
    }
    if (Object.keys(measures).length > 0) benchmarks[benchmarkName(row)] = measures
  }
  return JSON.stringify(benchmarks, null, 2)
}

/** @param {import('../../../records/comparison-record.js').ComparisonRow} row @returns {string} `node-http/json/c100` */
export const benchmarkName = (row) => `${row.sut}/${row.scenario}/c${row.connections}`

/**
 * @param {number} value @param {[number, number] | null} interval @param {number} scale to the measure's unit
 */
function metric (value, interval, scale) {
  return interval
    ? { value: value * scale, lower_value: interval[0] * scale, upper_value: interval[1] * scale }
    : { value: value * scale }
}

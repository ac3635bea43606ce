// @ts-check
/**
 * The candidate's figures in Bencher Metric Format, for `bencher run --adapter json --file …`:
 * `{ "<sut>/<scenario>/c<connections>": { "<measure>": { value, lower_value?, upper_value? } } }`.
 * Bencher keeps the history and runs its own thresholds, so this is the candidate's measurement,
 * not the comparison; it uses Bencher's two built-in measures in their units: `throughput` (req/s,
 * operations per second) and `latency` (here the p99, in nanoseconds); instruction counts use `instructions`
 * (per request), the measure Bencher's own instruction-count adapters create, with `program-instructions` (V8's collector's
 * counted apart), `allocated-bytes`, `write-syscalls` and `read-syscalls` (per request) beside it when the count has them. The bounds are
 * the 95% bootstrap interval of the median over the repeats, omitted with one run. Cells whose candidate
 * has no valid measurement (a run not ok, or only in the baseline) are left out.
 * @param {import('../../../records/comparison-record.js').Comparison} comparison
 * @returns {string}
 */
export function formatCompareBmf (comparison) {
  /** @type {Record<string, Record<string, { value: number, lower_value?: number, upper_value?: number }>>} */
  const benchmarks = {}
  for (const row of comparison.rows) {
    const instructions = row.instructionsPerRequest?.candidate
    if (instructions) {
      benchmarks[benchmarkName(row)] = {
        instructions: metric(instructions.median, instructions.ci95, 1),
        ...(row.programInstructionsPerRequest?.candidate
          ? {
              'program-instructions': metric(
                row.programInstructionsPerRequest.candidate.median,
                row.programInstructionsPerRequest.candidate.ci95,
                1
              )
            }
          : {}),
        ...(row.allocatedBytesPerRequest?.candidate
          ? { 'allocated-bytes': metric(row.allocatedBytesPerRequest.candidate.median, row.allocatedBytesPerRequest.candidate.ci95, 1) }
          : {}),
        ...(row.writesPerRequest?.candidate
          ? { 'write-syscalls': metric(row.writesPerRequest.candidate.median, row.writesPerRequest.candidate.ci95, 1) }
          : {}),
        ...(row.readsPerRequest?.candidate
          ? { 'read-syscalls': metric(row.readsPerRequest.candidate.median, row.readsPerRequest.candidate.ci95, 1) }
          : {})
      }
    }
    const rate = row.requestsPerSec?.candidate
    if (!rate) continue
    /** @type {Record<string, { value: number, lower_value?: number, upper_value?: number }>} */
    const measures = { throughput: metric(rate.median, rate.ci95, 1) }
    const p99 = row.p99Us?.candidate
    if (p99) measures.latency = metric(p99.median, p99.ci95, 1000)
    benchmarks[benchmarkName(row)] = measures
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

// @ts-check
// The record of a comparison (`dyno compare --format json`, harness/schema/compare.schema.json): its sides, its settings, a row per
// (SUT, scenario, connections) with the figures of each metric the sides' measure compares, and the verdicts' summary.

/**
 * @typedef {import('../judging/verdict.js').Verdict} Verdict
 * @typedef {import('../judging/stats/instruction-threshold.js').RowThreshold} RowThreshold
 *
 * @typedef {import('../judging/change-statistics.js').SideFigures} SideFigures
 * @typedef {import('../judging/change-statistics.js').ChangeTest} ChangeTest
 *
 * @typedef {object} MetricRow one metric of one row
 * @property {SideFigures | null} baseline null when that side has no usable runs
 * @property {SideFigures | null} candidate
 * @property {number | null} changePercent
 * @property {[number, number] | null} ci95Percent
 * @property {ChangeTest | null} test
 * @property {boolean | null} significant
 * @property {RowThreshold | null} threshold the smallest change the verdict calls; null unless the row is compared
 * @property {Verdict | null} verdict null unless the row is compared
 *
 * @typedef {object} ComparisonRow one (SUT, scenario, connections)
 * @property {string} sut
 * @property {string} scenario
 * @property {number} connections
 * @property {'compared' | 'too-few-repeats' | 'not-comparable'} status
 * @property {string | null} reason why the row is not compared, or gets the point change only
 * @property {string[]} notes what a reader should know (different durations, …)
 * @property {Verdict | null} verdict the verdict on the primary metric of the sides' measure (all instructions where a count has no
 *   collector split, said in the notes)
 * @property {string} verdictMetric the metric of `verdict`
 * @property {MetricRow | null} requestsPerSec bigger is better (wall-clock results; null in a row of another measure)
 * @property {MetricRow | null} p99Us 99th percentile latency in µs, smaller is better (wall-clock results)
 * @property {MetricRow | null} [instructionsPerRequest] all instructions, one value per counted window, smaller is better (instruction
 *   counts): shown beside the program's, or the verdict's metric where a count has no collector split
 * @property {MetricRow | null} [programInstructionsPerRequest] the instructions that were not V8's collector's, per window: the verdict's
 * @property {MetricRow | null} [collectorInstructionsPerRequest] the collector's, per window: shown, no verdict
 * @property {MetricRow | null} [collectionsPerWindow] scavenges and mark-compacts per window: shown, no verdict
 * @property {MetricRow | null} [allocatedBytesPerRequest] bytes allocated on V8's heap per request, per window, with its own verdict
 * @property {MetricRow | null} [writesPerRequest] write system calls per request, one value per counted window, smaller is better
 *   (instruction counts with their system calls; null when a side has none)
 * @property {MetricRow | null} [readsPerRequest] read system calls per request, likewise
 * @property {MetricRow | null} [pollingPerRequest] polling system calls per request: shown, no verdict (they follow timing)
 * @property {MetricRow | null} [otherSyscallsPerRequest] every other system call per request: shown, no verdict
 * @property {MetricRow | null} [capacityPerSec] the highest offered rate held within the objective, one value per launch (capacity results)
 * @property {MetricRow | null} [ceilingPerSec] the closed-loop ceiling before the steps, per launch: shown, no verdict (capacity results)
 * @property {{ baseline: string[], candidate: string[] }} files the result files of each side
 * @property {import('../reports/compare/warmup-change.js').WarmupChange | null} warmup how the cell warmed up on each side (wall-clock
 *   results); null when a side has no run, or no run of either side was classified
 * @property {import('../reports/compare/runtime-differences.js').RuntimeDifferences | null} runtimeDifferences what the runtime did
 *   differently, where the verdict found the level changed; null elsewhere, or when no run of either side recorded runtime events
 *
 * @typedef {{ paths: string[], runIds: string[], commits: { commit: string | null, dirty: boolean }[], resultSchemaVersion: number }}
 *   SideSummary
 *
 * @typedef {object} Comparison
 * @property {number} schemaVersion
 * @property {SideSummary} baseline
 * @property {SideSummary} candidate
 * @property {{ measure: string, thresholdPercent: number | null, thresholdFloorPercent: number | null, alpha: number, paired: boolean,
 *   test: 'mann-whitney-u' | 'wilcoxon-signed-rank', interval: 'hodges-lehmann', verdictMetric: string }} settings
 *   thresholdPercent: the one threshold of every row, null when each row has its own (the row's A/A spread, never below
 *   thresholdFloorPercent); test: the test of every row, except paired rows that could not be paired (said in their notes)
 * @property {ComparisonRow[]} rows
 * @property {{ improved: number, regressed: number, unchanged: number, tooFewRepeats: number, notComparable: number,
 *   syscallsRegressed: number, allocationRegressed: number, disturbed: number }} summary syscallsRegressed: rows whose write or read
 *   system calls per request regressed; allocationRegressed: rows whose bytes allocated per request regressed; disturbed: rows that
 *   rest on a run other processes disturbed, named in their notes
 */

/**
 * @param {ComparisonRow} row @param {string} metric a metric of the row's measure
 * @returns {MetricRow | null} the row's figures of it; null: none
 */
export const metricOf = (row, metric) =>
  /** @type {Record<string, MetricRow | null | undefined>} */ (/** @type {unknown} */ (row))[metric] ?? null

export {}

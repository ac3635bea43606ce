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
 * @typedef {object} RowExplanation why a count's row changed, in brief (reports/explain/row-explanation.js)
 * @property {{ name: string, file: string | null, line: number | null, package: string | null, layer: string, chargedChange: number }[]}
 *   functions the program's top three by their change with the native code they ran, largest first
 * @property {{ layer: string, label: string, shareOfChange: number | null }[]} layers beyond the noise, largest change first
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
 * @property {MetricRow | null} [cpuUsPerRequest] µs of the SUT's cpu per response, smaller is better, with its own verdict (wall-clock
 *   results; null when a side's results were written before it was recorded)
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
 * @property {WarmupChange | null} warmup how the cell warmed up on each side (wall-clock
 *   results); null when a side has no run, or no run of either side was classified
 * @property {RowExplanation | null} [why] a regressed or improved count's top functions and layers (null: its counts have no functions)
 * @property {RuntimeDifferences | null} runtimeDifferences what the runtime did
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

/**
 * How each side of a cell warmed up, and whether that changed (reports/compare/warmup-change.js finds it).
 * @typedef {import('../judging/series-classification.js').Classification} Classification
 *
 * @typedef {object} WarmupSide how one side's runs of a cell warmed up
 * @property {Classification | null} classification the side's: the most common among its runs; null: none of them was classified (reason)
 * @property {{ classification: Classification | null, runs: number }[]} runs how many runs had each classification, most first (null: a run
 *   with no classification); one entry when they agree
 * @property {number | null} steadyStartMs when the steady state began, in ms since the first request (the warm-up's included): the median
 *   over the runs of the side's classification; null: no steady state
 * @property {string | null} reason why the side has no classification; null: it has one
 *
 * @typedef {object} WarmupChange
 * @property {WarmupSide} baseline
 * @property {WarmupSide} candidate
 * @property {boolean} changed the two sides' classifications differ, or the steady start moved by more than toleranceMs
 * @property {number | null} steadyStartShiftMs the candidate's steady start less the baseline's; null unless both have one
 * @property {number | null} toleranceMs the largest shift that is not a change: two windows, or a quarter of the baseline's steady start
 *   when that is more; null unless both have a steady start
 */

/**
 * What the runtime did differently on the two sides of a cell whose level changed (reports/compare/runtime-differences.js finds it).
 *
 * @typedef {object} RuntimeRates one side's measure phases, over all its runs, per second of load
 * @property {string} source the source of the events (v8, go-gctrace)
 * @property {number} loadSec the seconds of load the rates are over
 * @property {Record<string, number> | null} optimizedPerSec functions optimised, by tier; null: the runtime reports no compilation
 * @property {{ perSec: number, byCategoryPerSec: Record<string, number> } | null} deoptimized null: the runtime reports none
 * @property {Record<string, { perSec: number, pausePct: number }>} collections by kind: how many a second, and the share of the load's
 *   time, in percent, they paused the program
 *
 * @typedef {object} DeoptGroupSeen a group of deoptimisations on one side, summed over its runs
 * @property {string} fn @property {string} position @property {string} reason @property {string} category
 * @property {number} count over the side's runs
 * @property {number} runs how many of the side's runs had it
 *
 * @typedef {object} DeoptDifferences
 * @property {DeoptGroupSeen[]} onlyInBaseline at most LISTED_DEOPT_GROUPS (reports/compare/runtime-differences.js), most frequent
 *   first
 * @property {DeoptGroupSeen[]} onlyInCandidate
 * @property {number} notListedBaseline groups only in the baseline beyond those listed
 * @property {number} notListedCandidate
 *
 * @typedef {object} LevelChange why the events are set side by side
 * @property {'verdict' | 'steady windows'} by the verdict's test across runs, or (too few runs for it) the steady windows' own spread
 * @property {string | null} verdict by the verdict: improved or regressed
 * @property {number | null} ratio by the steady windows: their req/s, candidate over baseline (Hodges–Lehmann)
 * @property {[number, number] | null} interval its 95% interval
 *
 * @typedef {object} RuntimeDifferences
 * @property {LevelChange} levelChange
 * @property {string | null} reason why the events cannot be compared (a side's were not collected, and why); null: they can
 * @property {RuntimeRates | null} baseline null with a reason
 * @property {RuntimeRates | null} candidate
 * @property {DeoptDifferences | null} deoptimizations null with a reason, or when a side's runtime reports no deoptimisations
 */

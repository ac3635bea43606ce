// @ts-check
// What a comparison reads of a measure (reports/compare/build-comparison.js and compare-cell.js ask their sides' measure, never which
// measure it is): the metrics a row carries and how each is read from a result, the one the verdict is on, those with verdicts of their
// own and those only shown, how the values pair and what threshold a verdict needs, and how the human formats write its rows.

/**
 * @typedef {import('../records/result-record.js').ResultRecord} ResultRecord
 * @typedef {import('../records/comparison-record.js').Comparison} Comparison
 * @typedef {import('../records/comparison-record.js').ComparisonRow} ComparisonRow
 * @typedef {import('../records/comparison-record.js').RowThreshold} RowThreshold
 * @typedef {import('../records/comparison-record.js').MetricRow} MetricRow
 *
 * @typedef {object} MetricSpec one figure a comparison reads of every result
 * @property {(record: ResultRecord) => (number | null | undefined)[]} pick the record's values (one per run, or one per counted window)
 * @property {number} digits the digits its figures keep
 * @property {boolean} biggerIsBetter
 * @property {string} label how a sentence names it: `req/s`, `write system calls per request`
 * @property {{ measure: string, scale: number }} [bmf] the Bencher measure the candidate's figures are written as (`throughput`,
 *   `latency`, `instructions`, …) and the factor to that measure's unit; absent: not written in Bencher Metric Format
 *
 * @typedef {object} GabFormat one github-action-benchmark file of a measure's figures (the action reads one direction per file)
 * @property {(row: ComparisonRow) => { figures: MetricRow | null | undefined, suffix: string }} entry the row's figures it holds and the
 *   suffix of the entry's name (` p99`, ` program instructions`)
 * @property {boolean} biggerIsBetter the action's `tool`: customBiggerIsBetter or customSmallerIsBetter
 * @property {string} unit the entry's unit (`req/s`, `ms`)
 * @property {number} scale from the metric's unit to `unit`
 * @property {(value: number) => string} format how the baseline's figure is written in the entry's `extra`
 * @property {string} holds what `--format`'s help says the file holds: `p99 ms`
 *
 * @typedef {{ head: string[], alignRight: number[], cells: (row: ComparisonRow) => string[] }} Columns a table: its header, the columns
 *   aligned right, and how a row fills it
 * @typedef {{ columns: Columns & { rows: ComparisonRow[] }, note: string }} SecondaryTable a table under the main one, with the sentence
 *   under it
 *
 * @typedef {object} ComparisonSpec
 * @property {Record<string, MetricSpec>} metrics every metric a row of this measure may carry
 * @property {string} primary the metric the verdict is on
 * @property {string[]} others compared after it, each with a verdict of its own in its figures
 * @property {string[]} failing of those, the ones whose regression `--fail-on regression` fails on besides the primary's
 * @property {string[]} shown compared and shown, never judged
 * @property {boolean} pairsByPosition whether its values pair by position whatever `--paired` says (a count's windows)
 * @property {'window' | 'round'} pairUnit what a pair of values is
 * @property {'window' | 'run'} valueUnit what one value is, in the reason a row has too few of them
 * @property {{ fixedPercent: number } | { floorPercent: number }} threshold the threshold of a verdict when none is given: one for every
 *   row, or each row's own A/A spread, never below the floor
 * @property {boolean} warmup whether rows look at each side's warm-up and, where the level moved, at the runtime's events
 * @property {(records: { record: ResultRecord, file: string }[]) => string | null} primaryFallback why the rows' results cannot be judged
 *   on the primary metric, which then falls back to `fallbackMetric`; null: they can
 * @property {string | null} fallbackMetric
 * @property {(records: { record: ResultRecord, file: string }[]) => string | null} settingsProblem why two sides' results were measured
 *   with settings that make them different experiments, beyond the load's; null: none
 * @property {(compared: Record<string, unknown>) => string[]} rowNotes what a reader should know about a compared row, from its metrics
 * @property {string} verdictsOn what the summary says the verdicts are on
 * @property {(settings: Comparison['settings']) => string} testText the test the summary names
 * @property {(comparison: Comparison) => Columns} columns the main table of the human formats
 * @property {(comparison: Comparison) => SecondaryTable[]} secondaryTables the tables under it
 * @property {Record<string, GabFormat>} gabFormats github-action-benchmark formats this measure writes, by `--format` name
 * @property {(record: ResultRecord) => { field: string, expected: string } | null} recordProblem what an ok result of this measure must
 *   hold for a comparison to read it
 * @property {(sides: { name: string, records: { record: ResultRecord, file: string }[] }[]) => void} checkSides refuses two sides it cannot
 *   compare at all (a DynoError naming what differs)
 */

export {}

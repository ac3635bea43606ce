// @ts-check
// One cell's row of a comparison, as its measure says (measures/comparison-spec.js): why the cell cannot be compared, or each metric's
// change with its threshold and verdict; what a reader should know of the row (load settings that differ, runs that were limited or
// disturbed, runs noisier than the threshold); and, where the level moved, what the runtime did differently.
import { mean, sampleStandardDeviation } from 'simple-statistics'
import { metricChange, sideFigures, tooFewRepeatsReason } from '../../judging/change-statistics.js'
import { instructionThreshold } from '../../judging/stats/instruction-threshold.js'
import { verdictOf } from '../../judging/verdict.js'
import { runtimeDifferences } from './runtime-differences.js'
import { steadyLevelShift } from './steady-level-shift.js'
import { warmupChange } from './warmup-change.js'
import { rowExplanation } from '../explain/row-explanation.js'

/**
 * @typedef {import('../../records/comparison-record.js').MetricRow} MetricRow
 * @typedef {import('../../records/comparison-record.js').ComparisonRow} ComparisonRow
 * @typedef {import('../../records/comparison-record.js').RowThreshold} RowThreshold
 * @typedef {import('./read-inputs.js').SourcedRecord} SourcedRecord
 * @typedef {import('./match-results.js').MatchedCell} MatchedCell
 * @typedef {import('../../measures/comparison-spec.js').ComparisonSpec} ComparisonSpec
 * @typedef {import('../../records/result-record.js').ResultRecord} ResultRecord
 *
 * @typedef {object} CellSettings how every cell of a comparison is compared
 * @property {ComparisonSpec} spec the sides' measure's
 * @property {number | null} given the threshold given, or null
 * @property {number} alpha
 * @property {boolean} paired whether each side's runs pair up, in the order they started
 * @property {[number, number]} seeds of the baseline's and the candidate's figures
 *
 * @typedef {object} CellRow what a cell's row is built from, compared or not
 * @property {MatchedCell} cell its runs, in the order they started where they pair
 * @property {string} primary the metric of the verdict: the measure's, or its fallback
 * @property {string[]} shown the metrics compared and shown, never judged
 * @property {string[]} notes what a reader should know of the row, so far
 * @property {Pick<ComparisonRow, 'sut' | 'scenario' | 'connections' | 'files' | 'verdictMetric' | 'warmup'>} head the row's fields that
 *   do not depend on whether it was compared
 */

/** Load settings that make two measurements different experiments. */
const LOAD_IDENTITY = /** @type {const} */ (['engine', 'pipelining', 'ratePerSec', 'countWarmupRequests', 'countWindowRequests'])
/** Load settings that may differ, with a note. */
const LOAD_NOTED = /** @type {const} */ (['durationSec', 'warmupSec', 'countWindows'])
/** Every row carries req/s and p99 (null where its measure has none), as the comparison's record has them. */
const FIGURES_EVERY_ROW_CARRIES = Object.freeze({ requestsPerSec: null, p99Us: null })

/**
 * @param {MatchedCell} matched
 * @param {CellSettings} settings
 * @returns {ComparisonRow}
 */
export function compareCell (matched, settings) {
  const { spec, paired } = settings
  const cell = paired ? { ...matched, baseline: inStartOrder(matched.baseline), candidate: inStartOrder(matched.candidate) } : matched
  const files = { baseline: cell.baseline.map(({ file }) => file), candidate: cell.candidate.map(({ file }) => file) }
  const notes = rowNotes(cell)
  const fallback = spec.fallbackMetric !== null ? spec.primaryFallback([...cell.baseline, ...cell.candidate]) : null
  const primary = fallback ? /** @type {string} */ (spec.fallbackMetric) : spec.primary
  if (fallback) notes.push(`the verdict rests on all instructions, the collector's included: ${fallback}`)
  const shown = spec.shown.filter((metric) => metric !== primary)
  const warmup = spec.warmup ? warmupChange(cell) : null
  const head = { sut: cell.sut, scenario: cell.scenario, connections: cell.connections, files, verdictMetric: primary, warmup }
  const problem = whyNotComparable(cell, spec, primary)
  const row = { cell, primary, shown, notes, head }
  return problem ? notComparableRow(row, problem, settings) : comparedRow(row, settings)
}

/**
 * A cell that cannot be compared: why, and each metric's figures on the sides that have them.
 * @param {CellRow} row @param {string} problem @param {CellSettings} settings
 * @returns {ComparisonRow}
 */
function notComparableRow ({ cell, primary, shown, notes, head }, problem, { spec, seeds }) {
  return {
    ...head,
    status: 'not-comparable',
    reason: problem,
    notes,
    verdict: null,
    runtimeDifferences: null,
    ...FIGURES_EVERY_ROW_CARRIES,
    ...Object.fromEntries([primary, ...spec.others, ...shown].map((metric) => [metric, sideFiguresOnly(cell, spec, metric, seeds)]))
  }
}

/**
 * @param {MatchedCell} cell @param {ComparisonSpec} spec @param {string} metric @param {[number, number]} seeds
 * @returns {MetricRow} each side's figures of the metric where it has values, and no change
 */
function sideFiguresOnly (cell, spec, metric, seeds) {
  const { pick, digits } = spec.metrics[metric]
  const [baselineValues, candidateValues] = [valuesOf(cell.baseline, pick), valuesOf(cell.candidate, pick)]
  return {
    baseline: baselineValues && sideFigures(baselineValues, { seed: seeds[0], digits }),
    candidate: candidateValues && sideFigures(candidateValues, { seed: seeds[1], digits }),
    changePercent: null,
    ci95Percent: null,
    test: null,
    significant: null,
    threshold: null,
    verdict: null
  }
}

/**
 * A cell both sides measured alike: the verdict's metric and those with verdicts of their own compared and judged, the shown ones
 * compared only; too few repeats for the test leave it without a verdict.
 * @param {CellRow} row @param {CellSettings} settings
 * @returns {ComparisonRow}
 */
function comparedRow ({ cell, primary, shown, notes, head }, settings) {
  const { spec, given, alpha } = settings
  const { fixedPercent, floorPercent } = defaultThreshold(spec)
  const changeOf = (/** @type {string} */ metric) => {
    const change = compareMetric(cell, metric, settings)
    if (metric === primary && change?.unpairedBecause) {
      notes.push(`compared as independent samples (Mann–Whitney U), not paired: ${change.unpairedBecause}`)
    }
    return change?.figures ?? null
  }
  const main = changeOf(primary)
  const more = Object.fromEntries(spec.others.map((metric) => [metric, changeOf(metric)]))
  for (const metric of shown) {
    const figures = changeOf(metric)
    more[metric] = figures && { ...figures, threshold: null, verdict: null }
  }
  notes.push(...spec.rowNotes(more))
  if (main?.threshold?.from !== 'spread') {
    const thresholdPercent = main?.threshold?.percent ?? given ?? fixedPercent ?? floorPercent ?? 0
    notes.push(...noiseNotes(main, thresholdPercent, spec.metrics[primary].label, spec.pairUnit))
  }
  const enough = main?.test !== null && main?.test !== undefined
  return {
    ...head,
    status: enough ? 'compared' : 'too-few-repeats',
    reason: enough ? null : tooFewRepeats(cell, spec, primary, alpha),
    notes,
    verdict: enough ? /** @type {MetricRow} */ (main).verdict : null,
    ...(enough && (main?.verdict === 'regressed' || main?.verdict === 'improved') ? { why: rowExplanation(cell) } : {}),
    runtimeDifferences: spec.warmup ? differencesWhereLevelMoved(cell, main, enough, given ?? fixedPercent ?? 0) : null,
    ...FIGURES_EVERY_ROW_CARRIES,
    ...more,
    [primary]: main
  }
}

/**
 * @param {ComparisonSpec} spec
 * @returns {{ fixedPercent: number | null, floorPercent: number | null }} the measure's threshold when none is given: one for every row,
 *   or a floor under each row's own spread
 */
const defaultThreshold = (spec) => ({
  fixedPercent: 'fixedPercent' in spec.threshold ? spec.threshold.fixedPercent : null,
  floorPercent: 'floorPercent' in spec.threshold ? spec.threshold.floorPercent : null
})

/**
 * How one metric changed from the baseline to the candidate, with the threshold and the verdict it gets, and why its values were not
 * paired where they were meant to be.
 * @param {MatchedCell} cell @param {string} metric @param {CellSettings} settings
 * @returns {{ figures: MetricRow, unpairedBecause: string | null } | null} null: a side has no values of the metric
 */
function compareMetric (cell, metric, { spec, given, alpha, paired, seeds }) {
  const { pick, digits, biggerIsBetter } = spec.metrics[metric]
  const [baselineValues, candidateValues] = [valuesOf(cell.baseline, pick), valuesOf(cell.candidate, pick)]
  if (!baselineValues || !candidateValues) return null
  const change = metricChange(baselineValues, candidateValues, { alpha, seeds, digits, paired })
  const values = { baseline: baselineValues, candidate: candidateValues, paired: paired && change.unpairedBecause === null }
  const threshold = metricThreshold(values, spec, given)
  return {
    figures: {
      baseline: change.baseline,
      candidate: change.candidate,
      changePercent: change.changePercent,
      ci95Percent: change.ci95Percent,
      test: change.test,
      significant: change.significant,
      threshold: change.enoughRepeats ? threshold : null,
      verdict: change.enoughRepeats
        ? verdictOf(
          { significant: change.significant, changePercent: change.changePercent },
          { thresholdPercent: threshold.percent, biggerIsBetter }
        )
        : null
    },
    unpairedBecause: change.unpairedBecause
  }
}

/**
 * The threshold a metric's change must pass for a verdict: the one given, the measure's fixed one, or the row's own A/A spread above
 * the measure's floor (instruction-threshold.js).
 * @param {{ baseline: number[], candidate: number[], paired: boolean }} values each side's, and whether they were paired
 * @param {ComparisonSpec} spec @param {number | null} given
 * @returns {RowThreshold}
 */
function metricThreshold (values, spec, given) {
  const { fixedPercent, floorPercent } = defaultThreshold(spec)
  return floorPercent !== null
    ? instructionThreshold(values, { givenPercent: given, floorPercent })
    : { percent: given ?? /** @type {number} */ (fixedPercent), from: given === null ? 'default' : 'given', spreadPercent: null }
}

/**
 * @param {MatchedCell} cell @param {ComparisonSpec} spec @param {string} primary @param {number} alpha
 * @returns {string} why the verdict's metric has too few values for its test
 */
function tooFewRepeats (cell, spec, primary, alpha) {
  const [baselineValues, candidateValues] = [
    valuesOf(cell.baseline, spec.metrics[primary].pick),
    valuesOf(cell.candidate, spec.metrics[primary].pick)
  ]
  return tooFewRepeatsReason(baselineValues?.length ?? 0, candidateValues?.length ?? 0, alpha, spec.valueUnit)
}

/**
 * The runtime's events are looked at where the level moved beyond its spread: the verdict where the runs are enough for its test, else
 * (one sustained run a side) the steady windows' own spread, and by at least the threshold a verdict would need; never the point change
 * of noisy runs.
 * @param {MatchedCell} cell @param {MetricRow | null} main the verdict's metric @param {boolean} enough whether its runs were enough for
 *   its test @param {number} thresholdPercent the one given, or the measure's fixed one
 * @returns {import('./runtime-differences.js').RuntimeDifferences | null} null: the level did not move
 */
function differencesWhereLevelMoved (cell, main, enough, thresholdPercent) {
  if (enough) {
    return main?.verdict === 'improved' || main?.verdict === 'regressed'
      ? runtimeDifferences(cell, { by: 'verdict', verdict: main?.verdict ?? null, ratio: null, interval: null })
      : null
  }
  const shift = steadyLevelShift(cell)
  const moved = shift !== null && (shift.interval[0] > 1 || shift.interval[1] < 1) && Math.abs(shift.ratio - 1) >= thresholdPercent / 100
  return moved ? runtimeDifferences(cell, { by: 'steady windows', verdict: null, ratio: shift.ratio, interval: shift.interval }) : null
}

/**
 * The values of one metric on one side, or why there are none.
 * @param {SourcedRecord[]} records
 * @param {(record: ResultRecord) => (number | null | undefined)[]} pick a record's values
 * @returns {number[] | null} null when a side is missing, has a run that is not ok, or lacks the value
 */
function valuesOf (records, pick) {
  if (records.length === 0 || records.some(({ record }) => record.status !== 'ok')) return null
  const values = records.flatMap(({ record }) => pick(record))
  return values.length > 0 && values.every((value) => typeof value === 'number' && value > 0) ? /** @type {number[]} */ (values) : null
}

/**
 * Where the runs vary by more than the threshold: each side's runs, or, for a paired test (which
 * cancels what a round's two runs share), the per-round ratios.
 * @param {MetricRow | null} figures the primary metric's row
 * @param {number} thresholdPercent
 * @param {string} label the metric, e.g. `req/s`
 * @param {'round' | 'window'} unit what a pair is
 * @returns {string[]}
 */
function noiseNotes (figures, thresholdPercent, label, unit) {
  const cvPercent = (/** @type {number[]} */ values) => values.length < 2 ? 0 : sampleStandardDeviation(values) / mean(values) * 100
  const hides = unit === 'window'
    ? 'the SUT\'s own work differs from window to window (garbage collections, timers), which hides changes of that size'
    : 'a noisy machine hides changes of that size'
  if (figures?.test?.name === 'wilcoxon-signed-rank' && figures.baseline && figures.candidate) {
    const baselineRuns = figures.baseline.runs
    const cv = cvPercent(figures.candidate.runs.map((value, index) => value / baselineRuns[index]))
    return cv > thresholdPercent
      ? [`the per-${unit} ratios of ${label} vary by more than the threshold (CV ${cv.toFixed(1)}%): ${hides}`]
      : []
  }
  return /** @type {const} */ (['baseline', 'candidate']).flatMap((side) => {
    const cv = cvPercent(figures?.[side]?.runs ?? [])
    return cv > thresholdPercent
      ? [`the ${side}'s ${label} vary from ${unit === 'window' ? 'window to window' : 'run to run'} ` +
          `by more than the threshold (CV ${cv.toFixed(1)}%): ${hides}`]
      : []
  })
}

/** @param {SourcedRecord[]} records @returns {SourcedRecord[]} in the order the runs started: round order */
function inStartOrder (records) {
  return [...records].sort((a, b) => Date.parse(a.record.startedAt) - Date.parse(b.record.startedAt))
}

/**
 * @param {MatchedCell} cell
 * @param {ComparisonSpec} spec @param {string} primary the metric of the verdict
 * @returns {string | null}
 */
function whyNotComparable (cell, spec, primary) {
  if (cell.baseline.length === 0) return 'only in the candidate'
  if (cell.candidate.length === 0) return 'only in the baseline'
  const notOk = [
    ...cell.baseline.map((sourced) => ({ side: 'baseline', ...sourced })),
    ...cell.candidate.map((sourced) => ({ side: 'candidate', ...sourced }))
  ].filter(({ record }) => record.status !== 'ok')
  if (notOk.length > 0) {
    return notOk
      .map(
        ({ side, record, file }) =>
          `${side}${record.repeat && record.repeat.of > 1 ? ` run ${record.repeat.index}` : ''} ${record.status}: ` +
          `${firstLine(record.reason ?? 'no reason recorded')} (${file})`
      )
      .join('; ')
  }
  const [baseLoad, candidateLoad] = [cell.baseline[0].record.load, cell.candidate[0].record.load]
  const differing = LOAD_IDENTITY.filter((field) => (baseLoad[field] ?? null) !== (candidateLoad[field] ?? null))
  if (differing.length > 0) {
    return `the load differs: ${differing.map((field) => `${field} ${baseLoad[field] ?? 'none'} vs ` +
      `${candidateLoad[field] ?? 'none'}`).join(', ')}`
  }
  const settings = spec.settingsProblem([...cell.baseline, ...cell.candidate])
  if (settings) return settings
  const missing = [...cell.baseline, ...cell.candidate].find(
    ({ record }) => valuesOf([{ record, file: '' }], spec.metrics[primary].pick) === null
  )
  if (missing) return `a result measured no requests (${missing.file})`
  return null
}

/**
 * What a reader should know about a row: load settings that differ, runs the load generator limited.
 * @param {MatchedCell} cell
 * @returns {string[]}
 */
function rowNotes (cell) {
  const notes = []
  if (cell.baseline.length > 0 && cell.candidate.length > 0) {
    const [baseLoad, candidateLoad] = [cell.baseline[0].record.load, cell.candidate[0].record.load]
    notes.push(...LOAD_NOTED.filter((field) => baseLoad[field] !== candidateLoad[field])
      .map((field) => `${field} differs: ${baseLoad[field]} (baseline) vs ${candidateLoad[field]} (candidate)`))
    // Absent in results written before `--runtime-events`: none were collected then.
    if (Boolean(baseLoad.runtimeEvents) !== Boolean(candidateLoad.runtimeEvents)) {
      notes.push(
        `runtime events were collected in the ${baseLoad.runtimeEvents ? 'baseline' : 'candidate'}'s runs only (--runtime-events): ` +
          'collecting them costs the SUT time, so part of a change of level may be theirs'
      )
    }
  }
  for (const side of /** @type {const} */ (['baseline', 'candidate'])) {
    const bound = cell[side].filter(({ record }) => record.summary?.generatorBound)
    if (bound.length > 0) {
      notes.push(
        `${bound.length} ${side} run${bound.length > 1 ? 's were' : ' was'} generator-bound: the load generator, not the SUT, set req/s`
      )
    }
    const disturbed = cell[side].filter(({ record }) => record.interference?.disturbed)
    if (disturbed.length > 0) {
      notes.push(`${disturbed.length} ${side} run${disturbed.length > 1 ? 's were' : ' was'} disturbed: ` +
        `${disturbed.map(({ record }) => record.interference?.detail).join('; ')}`)
    }
  }
  return notes
}

/** @param {string} text @returns {string} the first line, at most 200 characters */
function firstLine (text) {
  const [line] = text.split('\n')
  return line.length > 200 ? `${line.slice(0, 199)}…` : line
}

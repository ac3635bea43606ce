// @ts-check
import { mean, sampleStandardDeviation } from 'simple-statistics'
import { COMPARE_SCHEMA_VERSION } from './compare-defaults.js'
import { metricChange, sideFigures, tooFewRepeatsReason } from '../../judging/change-statistics.js'
import { instructionThreshold } from '../../judging/stats/instruction-threshold.js'
import { metricOf } from '../../records/comparison-record.js'
import { measureNamed } from '../../measures/index.js'
import { matchResults } from './match-results.js'
import { runtimeDifferences } from './runtime-differences.js'
import { steadyLevelShift } from './steady-level-shift.js'
import { verdictOf } from '../../judging/verdict.js'
import { warmupChange } from './warmup-change.js'

/**
 * @typedef {import('../../records/comparison-record.js').Verdict} Verdict
 * @typedef {import('../../records/comparison-record.js').MetricRow} MetricRow
 * @typedef {import('../../records/comparison-record.js').ComparisonRow} ComparisonRow
 * @typedef {import('../../records/comparison-record.js').Comparison} Comparison
 * @typedef {import('../../records/comparison-record.js').SideSummary} SideSummary
 * @typedef {import('../../records/comparison-record.js').RowThreshold} RowThreshold
 * @typedef {import('./read-inputs.js').Side} Side
 * @typedef {import('./read-inputs.js').SourcedRecord} SourcedRecord
 * @typedef {import('../../measures/comparison-spec.js').ComparisonSpec} ComparisonSpec
 * @typedef {import('../../records/result-record.js').ResultRecord} ResultRecord
 */

/** Load settings that make two measurements different experiments. */
const LOAD_IDENTITY = /** @type {const} */ (['engine', 'pipelining', 'ratePerSec', 'countWarmupRequests', 'countWindowRequests'])
/** Load settings that may differ, with a note. */
const LOAD_NOTED = /** @type {const} */ (['durationSec', 'warmupSec', 'countWindows'])

/**
 * Compares two sides cell by cell, as their measure says (measures/comparison-spec.js): the metrics it reads, how they pair, the threshold.
 * @param {{ baseline: Side, candidate: Side }} sides
 * @param {{ thresholdPercent: number | null, alpha: number, paired?: boolean }} settings thresholdPercent: as given, or null for the
 *   measure's default (one fixed threshold, or each row's own A/A spread); paired: both sides were run in alternating rounds, so each
 *   cell's runs pair up in the order they started
 * @returns {Comparison}
 */
export function buildComparison ({ baseline, candidate }, { thresholdPercent: given, alpha, paired = false }) {
  const spec = baseline.measure.comparison
  const pairs = paired || spec.pairsByPosition
  const fixed = 'fixedPercent' in spec.threshold ? spec.threshold.fixedPercent : null
  const thresholdPercent = given ?? fixed
  const thresholdFloorPercent = given === null && 'floorPercent' in spec.threshold ? spec.threshold.floorPercent : null
  const matched = matchResults(baseline, candidate)
  const rows = matched.map((cell) => compareCell(cell, { spec, given, alpha, paired: pairs, seeds: [baseline.seed, candidate.seed] }))
  const count = (/** @type {(row: ComparisonRow) => boolean} */ test) => rows.filter(test).length
  const regressed = (/** @type {ComparisonRow} */ row, /** @type {string} */ metric) => metricOf(row, metric)?.verdict === 'regressed'
  return {
    schemaVersion: COMPARE_SCHEMA_VERSION,
    baseline: sideSummary(baseline),
    candidate: sideSummary(candidate),
    settings: {
      measure: baseline.measure.name,
      thresholdPercent,
      thresholdFloorPercent,
      alpha,
      paired: pairs,
      test: pairs ? 'wilcoxon-signed-rank' : 'mann-whitney-u',
      interval: 'hodges-lehmann',
      verdictMetric: spec.primary
    },
    rows,
    summary: {
      improved: count((row) => row.verdict === 'improved'),
      regressed: count((row) => row.verdict === 'regressed'),
      unchanged: count((row) => row.verdict === 'unchanged'),
      tooFewRepeats: count((row) => row.status === 'too-few-repeats'),
      notComparable: count((row) => row.status === 'not-comparable'),
      syscallsRegressed: count((row) => regressed(row, 'writesPerRequest') || regressed(row, 'readsPerRequest')),
      allocationRegressed: count((row) => regressed(row, 'allocatedBytesPerRequest')),
      disturbed: matched.filter((cell) => [...cell.baseline, ...cell.candidate].some(({ record }) => record.interference?.disturbed)).length
    }
  }
}

/** @param {Side} side @returns {SideSummary} */
function sideSummary (side) {
  return { paths: side.paths, runIds: side.runIds, commits: side.commits, resultSchemaVersion: side.schemaVersion }
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
 * @param {import('./match-results.js').MatchedCell} matched
 * @param {{ spec: ComparisonSpec, given: number | null, alpha: number, paired: boolean, seeds: [number, number] }} settings
 *   given: the threshold given, or null
 * @returns {ComparisonRow}
 */
function compareCell (matched, { spec, given, alpha, paired, seeds }) {
  // Every row carries req/s and p99 (null where its measure has none), as the comparison's record has them.
  const empty = { requestsPerSec: null, p99Us: null }
  const cell = paired ? { ...matched, baseline: inStartOrder(matched.baseline), candidate: inStartOrder(matched.candidate) } : matched
  const files = { baseline: cell.baseline.map(({ file }) => file), candidate: cell.candidate.map(({ file }) => file) }
  const notes = rowNotes(cell)
  const fallback = spec.fallbackMetric !== null ? spec.primaryFallback([...cell.baseline, ...cell.candidate]) : null
  const primary = fallback ? /** @type {string} */ (spec.fallbackMetric) : spec.primary
  if (fallback) notes.push(`the verdict rests on all instructions, the collector's included: ${fallback}`)
  const shown = spec.shown.filter((metric) => metric !== primary)
  const warmup = spec.warmup ? warmupChange(cell) : null
  const base = { sut: cell.sut, scenario: cell.scenario, connections: cell.connections, files, verdictMetric: primary, warmup }
  const problem = whyNotComparable(cell, spec, primary)
  const fixed = 'fixedPercent' in spec.threshold ? spec.threshold.fixedPercent : null
  const floor = 'floorPercent' in spec.threshold ? spec.threshold.floorPercent : null
  if (problem) {
    /** @type {(metric: string) => MetricRow} */
    const sidesOnly = (metric) => {
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
    return {
      ...base,
      status: 'not-comparable',
      reason: problem,
      notes,
      verdict: null,
      runtimeDifferences: null,
      ...empty,
      ...Object.fromEntries([primary, ...spec.others, ...shown].map((metric) => [metric, sidesOnly(metric)]))
    }
  }
  /** @type {(metric: string) => MetricRow | null} */
  const changeOf = (metric) => {
    const { pick, digits, biggerIsBetter } = spec.metrics[metric]
    const [baselineValues, candidateValues] = [valuesOf(cell.baseline, pick), valuesOf(cell.candidate, pick)]
    if (!baselineValues || !candidateValues) return null
    const change = metricChange(baselineValues, candidateValues, { alpha, seeds, digits, paired })
    if (metric === primary && change.unpairedBecause) {
      notes.push(`compared as independent samples (Mann–Whitney U), not paired: ${change.unpairedBecause}`)
    }
    /** @type {RowThreshold} */
    const threshold = floor !== null
      ? instructionThreshold({ baseline: baselineValues, candidate: candidateValues, paired: paired && change.unpairedBecause === null },
        { givenPercent: given, floorPercent: floor })
      : { percent: given ?? /** @type {number} */ (fixed), from: given === null ? 'default' : 'given', spreadPercent: null }
    return {
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
    }
  }
  const main = changeOf(primary)
  const more = Object.fromEntries(spec.others.map((metric) => [metric, changeOf(metric)]))
  for (const metric of shown) {
    const figures = changeOf(metric)
    more[metric] = figures && { ...figures, threshold: null, verdict: null }
  }
  notes.push(...spec.rowNotes(more))
  if (main?.threshold?.from !== 'spread') {
    notes.push(...noiseNotes(main, main?.threshold?.percent ?? given ?? fixed ?? floor ?? 0, spec.metrics[primary].label, spec.pairUnit))
  }
  const enough = main?.test !== null && main?.test !== undefined
  const [baselineValues, candidateValues] = [
    valuesOf(cell.baseline, spec.metrics[primary].pick),
    valuesOf(cell.candidate, spec.metrics[primary].pick)
  ]
  // The runtime's events are looked at where the level moved beyond its spread: the verdict where the runs are enough for its test, else
  // (one sustained run a side) the steady windows' own spread, and by at least the threshold a verdict would need; never the point
  // change of noisy runs.
  const shift = spec.warmup && !enough ? steadyLevelShift(cell) : null
  const shiftThreshold = (given ?? fixed ?? 0) / 100
  const levelChanged = spec.warmup && (enough
    ? main?.verdict === 'improved' || main?.verdict === 'regressed'
    : shift !== null && (shift.interval[0] > 1 || shift.interval[1] < 1) && Math.abs(shift.ratio - 1) >= shiftThreshold)
  return {
    ...base,
    status: enough ? 'compared' : 'too-few-repeats',
    reason: enough
      ? null
      : tooFewRepeatsReason(baselineValues?.length ?? 0, candidateValues?.length ?? 0, alpha, spec.valueUnit),
    notes,
    verdict: enough ? /** @type {MetricRow} */ (main).verdict : null,
    runtimeDifferences: levelChanged
      ? runtimeDifferences(cell, enough
        ? { by: 'verdict', verdict: main?.verdict ?? null, ratio: null, interval: null }
        : { by: 'steady windows', verdict: null, ratio: shift?.ratio ?? null, interval: shift?.interval ?? null })
      : null,
    ...empty,
    ...more,
    [primary]: main
  }
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
 * @param {import('./match-results.js').MatchedCell} cell
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
 * @param {import('./match-results.js').MatchedCell} cell
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

/**
 * The rows that make `--fail-on` fail.
 * @param {Comparison} comparison
 * @param {readonly string[]} failOn `regression`, `not-comparable`
 * @returns {ComparisonRow[]}
 */
export function failingRows (comparison, failOn) {
  const spec = measureNamed(comparison.settings.measure).comparison
  return comparison.rows.filter((row) => (failOn.includes('regression') && regressedMetrics(row, spec).length > 0) ||
    (failOn.includes('not-comparable') && row.status === 'not-comparable'))
}

/**
 * @param {ComparisonRow} row @param {ComparisonSpec} spec the row's measure's
 * @returns {string[]} what regressed in the row: its primary metric (the row's verdict) and those its measure fails on besides
 */
export function regressedMetrics (row, spec) {
  return [
    ...(row.verdict === 'regressed' ? [spec.metrics[row.verdictMetric].label] : []),
    ...spec.failing.filter((metric) => metricOf(row, metric)?.verdict === 'regressed').map((metric) => spec.metrics[metric].label)
  ]
}

// @ts-check
// Whether a cell's steady level moved between two sides that have too few runs for the verdict's test (one sustained run a side): the
// Hodges–Lehmann ratio of the req/s of the windows of each side's steady state, with its 95% interval. The steady state is the
// classification's (from its steady start to the end), or the measured phase's second half where a run has none. Neighbouring windows
// are not independent, so the interval is narrower than a test across runs would give: it says that the levels differ beyond the
// windows' own spread, which is the question that decides whether the runtime's events are worth setting side by side (with a shift
// of at least the comparison's threshold, compare-cell.js), not a verdict.
import { hodgesLehmannRatio } from '../../judging/stats/hodges-lehmann.js'
import { SIGNIFICANCE_ALPHA } from '../../judging/stats/significance.js'
import { roundTo } from '../../platform/util/numbers.js'

/** Fewer steady windows than this a side, and no shift is estimated. */
const MIN_STEADY_WINDOWS = 6

/**
 * @param {{ baseline: import('./read-inputs.js').SourcedRecord[], candidate: import('./read-inputs.js').SourcedRecord[] }} cell
 * @returns {{ ratio: number, interval: [number, number] } | null} candidate over baseline; null: too few steady windows
 */
export function steadyLevelShift (cell) {
  const [baseline, candidate] = [cell.baseline, cell.candidate].map((runs) => runs.flatMap(({ record }) => steadyRates(record)))
  if (baseline.length < MIN_STEADY_WINDOWS || candidate.length < MIN_STEADY_WINDOWS) return null
  const estimate = hodgesLehmannRatio(baseline, candidate, { alpha: SIGNIFICANCE_ALPHA })
  if (!estimate.interval) return null
  return { ratio: roundTo(estimate.ratio, 4), interval: [roundTo(estimate.interval[0], 4), roundTo(estimate.interval[1], 4)] }
}

/**
 * The req/s of a run's steady windows, on the timeline of its warm-up and measurement as one.
 * @param {import('../../records/result-record.js').ResultRecord} record @returns {number[]}
 */
function steadyRates (record) {
  const measure = record.summary?.timeseries ?? []
  const warmupMs = (record.warmup?.timeseries ?? []).reduce((sum, window) => sum + window.durationMs, 0)
  const steadyStartMs = record.classification?.throughput?.steadyStartMs ?? null
  const windows = steadyStartMs === null
    ? measure.slice(Math.floor(measure.length / 2), -1)
    : measure.filter((window, index) => window.startMs + warmupMs >= steadyStartMs && index < measure.length - 1)
  return windows.map((window) => window.requestsPerSec).filter((rate) => rate > 0)
}

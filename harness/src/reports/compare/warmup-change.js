// @ts-check
// Whether a cell warms up the same way on both sides of a comparison: each side's classification of the cell's series (its warm-up and
// measurement as one, judging/cell-classification.js), where its steady state began, and whether either changed.
import { median } from 'simple-statistics'
import { roundTo } from '../../platform/util/numbers.js'

/**
 * @typedef {import('../../judging/series-classification.js').Classification} Classification
 * @typedef {import('./read-inputs.js').SourcedRecord} SourcedRecord
 * @typedef {import('../../records/comparison-record.js').WarmupSide} WarmupSide
 * @typedef {import('../../records/comparison-record.js').WarmupChange} WarmupChange
 */

/** A steady start moves when it moves by more than this many windows (a change point is placed to a window) … */
const STEADY_START_WINDOWS = 2
/** … and by more than this share of the baseline's steady start (a later start is found less exactly). */
const STEADY_START_SHARE = 0.25

/**
 * The warm-up of a cell on both sides, or null when neither side's results were classified (written before dyno classified cells):
 * such a comparison reads as it did before.
 * @param {{ baseline: SourcedRecord[], candidate: SourcedRecord[] }} cell the runs of each side
 * @returns {WarmupChange | null}
 */
export function warmupChange (cell) {
  const all = [...cell.baseline, ...cell.candidate]
  if (cell.baseline.length === 0 || cell.candidate.length === 0 || !all.some(({ record }) => record.classification !== undefined)) {
    return null
  }
  const baseline = warmupSide(cell.baseline)
  const candidate = warmupSide(cell.candidate)
  const differs =
    baseline.classification !== null && candidate.classification !== null && baseline.classification !== candidate.classification
  const both = baseline.steadyStartMs !== null && candidate.steadyStartMs !== null
  const windowMs = Math.max(...all.map(({ record }) => record.load.windowMs ?? 0))
  const steadyStartShiftMs = both
    ? roundTo(/** @type {number} */ (candidate.steadyStartMs) - /** @type {number} */ (baseline.steadyStartMs), 1)
    : null
  const toleranceMs = both
    ? roundTo(Math.max(STEADY_START_WINDOWS * windowMs, STEADY_START_SHARE * /** @type {number} */ (baseline.steadyStartMs)), 1)
    : null
  const moved = steadyStartShiftMs !== null && toleranceMs !== null && Math.abs(steadyStartShiftMs) > toleranceMs
  return { baseline, candidate, changed: differs || moved, steadyStartShiftMs, toleranceMs }
}

/**
 * A side's classification is the most common among its runs rather than one representative run's: a run's classification is one
 * draw of a noisy series (a change point placed a window later, a late spike that leaves no steady state), and a comparison that took
 * one run would call a change whenever that draw differed; where the runs disagree, their counts are kept and shown. A tie goes to
 * the run in the middle of the tied runs by req/s, the run closest to the level the comparison reports. The steady start is the
 * median over the runs of that classification, so that it belongs to the classification shown beside it.
 * @param {SourcedRecord[]} records
 * @returns {WarmupSide}
 */
function warmupSide (records) {
  const runs = records.map(({ record }) => {
    const classified = record.status === 'ok' ? record.classification : null
    return {
      classification: classified?.classification ?? null,
      steadyStartMs: classified?.throughput?.steadyStartMs ?? null,
      requestsPerSec: record.summary?.requestsPerSec.mean ?? 0,
      reason: record.status !== 'ok'
        ? `a run that is ${record.status}`
        : record.classification === undefined
          ? 'its results were written before dyno classified warm-up'
          : classified?.reason ?? 'no series to classify'
    }
  })
  /** @type {Map<Classification | null, number>} */
  const counts = new Map()
  for (const run of runs) counts.set(run.classification, (counts.get(run.classification) ?? 0) + 1)
  const tally = [...counts].map(([classification, count]) => ({ classification, runs: count })).sort((a, b) => b.runs - a.runs)
  const classified = tally.filter((entry) => entry.classification !== null)
  if (classified.length === 0) return { classification: null, runs: tally, steadyStartMs: null, reason: runs[0].reason }
  const tied = new Set(classified.filter((entry) => entry.runs === classified[0].runs).map((entry) => entry.classification))
  const middle = runs.filter((run) => tied.has(run.classification)).sort((a, b) => a.requestsPerSec - b.requestsPerSec)
  const classification = middle[Math.floor((middle.length - 1) / 2)].classification
  const starts = runs.flatMap((run) => run.classification === classification && run.steadyStartMs !== null ? [run.steadyStartMs] : [])
  return { classification, runs: tally, steadyStartMs: starts.length > 0 ? roundTo(median(starts), 1) : null, reason: null }
}

// @ts-check
// Why a timeline's count changed between two releases: two records of one data directory explained as two runs' counts are
// (reports/explain), from the functions each record keeps. Both on one line (the same counting settings) and scenario, or the
// difference would be the settings'.
import { existsSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { DynoError } from '../../platform/errors.js'
import { explainChange } from '../../reports/explain/explain-change.js'
import { DATASET_FILE, RECORD_FILE, RECORDS_DIR, openDataset, recordFunctionList } from './timeline-dataset.js'

/**
 * @typedef {import('./timeline-dataset.js').TimelineRecord} TimelineRecord
 * @typedef {import('../../reports/explain/explain-change.js').ExplainedCount} ExplainedCount
 */

/** @param {string} path @returns {boolean} whether it names a record of a data directory: `<data>/records/<24 hex digits>.json` */
export const isTimelineRecordPath = (path) =>
  RECORD_FILE.test(basename(path)) && basename(dirname(path)) === RECORDS_DIR && existsSync(join(dirname(dirname(path)), DATASET_FILE))

/** @param {TimelineRecord} record @returns {string} `express@5.0.1 on node@22 × json` */
export const recordLabel = ({ key }) => `${key.framework}@${key.release} on ${key.runtime} × ${key.scenario}`

/**
 * @param {string} dir the data directory @param {TimelineRecord} record @param {'baseline' | 'candidate'} side
 * @returns {ExplainedCount}
 * @throws {DynoError} DYNO_ERR_EXPLAIN_INPUT when the release was not counted or its functions were not kept
 */
export function countOfTimelineRecord (dir, record, side) {
  const file = join(dir, RECORDS_DIR, `${record.id}.json`)
  if (record.status !== 'ok' || !record.measures) {
    throw explainError(`${side}: ${recordLabel(record)} (${file}) was not counted: ${record.reason ?? record.status}`)
  }
  const { functions, problem } = recordFunctionList(dir, record)
  if (functions === null || !record.functions) {
    throw explainError(`${side}: ${recordLabel(record)} (${file}) has no functions by layer: ${problem}`)
  }
  return {
    label: recordLabel(record),
    file,
    instructionsPerRequest: record.measures.instructionsPerRequest,
    programPerWindow: record.measures.programPerWindow.map((value) => value ?? record.measures?.instructionsPerRequest ?? 0),
    windowLayers: record.functions.windowLayers,
    profile: { ...record.functions, functions }
  }
}

/**
 * @param {TimelineRecord} baseline @param {TimelineRecord} candidate
 * @returns {string | null} why the two cannot be explained against each other
 */
export function unexplainablePair (baseline, candidate) {
  if (baseline.key.scenario !== candidate.key.scenario) {
    return `the baseline is of the scenario ${baseline.key.scenario}, the candidate of ${candidate.key.scenario}: explain compares ` +
      'one scenario'
  }
  if (baseline.key.counting.id !== candidate.key.counting.id) {
    return `the two were counted with other settings (lines ${baseline.key.counting.id} and ${candidate.key.counting.id}): their ` +
      'difference would be the settings\'; explain two records of one line'
  }
  return null
}

/**
 * `dyno explain` on two records of data directories.
 * @param {string} baselinePath @param {string} candidatePath @param {{ top: number }} settings
 * @returns {import('../../reports/explain/explain-runs.js').ExplainedRuns}
 */
export function explainTimelineRecords (baselinePath, candidatePath, settings) {
  const [baseline, candidate] = [baselinePath, candidatePath].map((path) => {
    const dir = dirname(dirname(resolve(path)))
    const record = openDataset(dir).get(basename(path, '.json'))
    if (!record) throw explainError(`${path} is not a record of the data directory ${dir}`)
    return { dir, record }
  })
  const problem = unexplainablePair(baseline.record, candidate.record)
  if (problem) throw explainError(problem)
  const explanation = explainChange(
    countOfTimelineRecord(baseline.dir, baseline.record, 'baseline'),
    countOfTimelineRecord(candidate.dir, candidate.record, 'candidate'),
    settings
  )
  return { explanations: [explanation], unpaired: [] }
}

/** @param {string} message */
const explainError = (message) => new DynoError('DYNO_ERR_EXPLAIN_INPUT', message)

// @ts-check
// Where a count steps: along the releases of a framework on one runtime (a line: framework × runtime × scenario × counting
// settings), and along the Node releases for one release of a framework. Each neighbouring pair of counts on a line is judged by
// stats/count-step.js, as `dyno compare` judges two counts. What this cannot tell is in
// docs/timeline.md: a drift of many changes each below the threshold, and a step between two releases that were not both counted.
import semver from 'semver'
import { median } from 'simple-statistics'
import { countStep } from '../../judging/stats/count-step.js'
import { FIXED_WARMUP_RULE } from '../../measures/instructions/counts/count-settle.js'
import { DynoError } from '../../platform/errors.js'

/**
 * @typedef {import('./timeline-dataset.js').TimelineRecord} TimelineRecord
 *
 * @typedef {object} LinePoint one count on a line
 * @property {string} at the release (along releases) or the runtime's version (along Node releases)
 * @property {string | null} publishedAt
 * @property {number} programInstructionsPerRequest
 * @property {boolean} settled whether every counted window lies within SETTLED_WITHIN of their median: a count whose first windows
 *   still hold the runtime's compilation (express on node@24 after 10,000 requests: its first window 5 times its last), or one of
 *   whose windows holds work the others do not (fastify 4.0 to 4.3: one window in four 10–17% above the rest), says what that
 *   request sequence cost, not what a steady request costs
 * @property {TimelineRecord} record
 *
 * @typedef {object} Step
 * @property {string} from @property {string} to the neighbouring points, in line order
 * @property {string} fromId @property {string} toId their records' ids
 * @property {number} changePct the estimated change, in percent (positive: more instructions per request)
 * @property {[number, number]} intervalPct its 95% interval, in percent
 * @property {number} thresholdPct the smallest change called a step on this pair
 *
 * @typedef {object} Line
 * @property {'releases' | 'node'} along
 * @property {{ framework: string, runtime: string | null, release: string | null, scenario: string, countingId: string }} key runtime:
 *   along releases; release: along Node releases
 * @property {LinePoint[]} points in order
 * @property {Step[]} steps
 * @property {TimelineRecord[]} notCounted the releases (or runtimes) of the line that have a record with a reason and no count
 */

/** How far from the median of its windows a settled count's windows may lie, as a share of it. */
export const SETTLED_WITHIN = 0.1

/**
 * @param {TimelineRecord[]} records @returns {Line[]} along releases, then along Node releases; each sorted by framework, scenario,
 *   runtime (or release)
 */
export function timelineLines (records) {
  const releaseLines = linesOf(
    records,
    'releases',
    (record) => [record.key.framework, record.key.runtime, record.key.scenario, record.key.counting.id],
    (record) => record.key.release
  )
  const nodeRecords = records.filter((record) => record.key.runtime.startsWith('node') && semver.valid(record.key.runtimeVersion))
  const nodeLines = linesOf(
    nodeRecords,
    'node',
    (record) => [record.key.framework, record.key.release, record.key.scenario, record.key.counting.id],
    (record) => semver.clean(String(record.key.runtimeVersion)) ?? ''
  )
    // Along Node, a line needs two Node releases to say anything.
    .filter((line) => line.points.length >= 2)
  return [...releaseLines, ...nodeLines]
}

/**
 * Two lines' ids in order, part by part: releases in version order (4.9.12 before 4.10.8), anything else as text.
 * @param {string} a @param {string} b @returns {number}
 */
function compareLineIds (a, b) {
  const [partsA, partsB] = [JSON.parse(a), JSON.parse(b)]
  for (let index = 0; index < partsA.length; index++) {
    const [partA, partB] = [String(partsA[index]), String(partsB[index])]
    const order = semver.valid(partA) && semver.valid(partB) ? semver.compare(partA, partB) : partA.localeCompare(partB)
    if (order !== 0) return order
  }
  return 0
}

/**
 * @param {TimelineRecord[]} records @param {'releases' | 'node'} along
 * @param {(record: TimelineRecord) => string[]} lineOf @param {(record: TimelineRecord) => string} pointOf a semver
 * @returns {Line[]}
 */
function linesOf (records, along, lineOf, pointOf) {
  /** @type {Map<string, TimelineRecord[]>} */
  const byLine = new Map()
  for (const record of records) {
    const id = JSON.stringify(lineOf(record))
    byLine.set(id, [...(byLine.get(id) ?? []), record])
  }
  return [...byLine.entries()].sort(([a], [b]) => compareLineIds(a, b)).map(([id, members]) => {
    const [framework, second, scenario, countingId] = JSON.parse(id)
    // A line is one counting rule: records of two warm-up rules under one counting id (a record edited, or made by a dyno that hashed
    // the rule out) are two lines' counts, and drawing them as one would call the change of rule a step.
    const rules = [...new Set(members.map((record) => record.key.counting.warmupRule ?? FIXED_WARMUP_RULE))]
    if (rules.length > 1) {
      const example = rules.map((rule) => members.find((record) => (record.key.counting.warmupRule ?? FIXED_WARMUP_RULE) === rule)?.id)
      throw new DynoError('DYNO_ERR_DATASET', `the records of ${framework} ${second} ${scenario} under counting ${countingId} were ` +
        `counted under the warm-up rules ${rules.join(' and ')} (records ${example.join(', ')}): they are not drawn as one line; ` +
        'nothing was written')
    }
    // One point per release: a count where there is one (a failure of the same key beside it is history, not the line).
    const counted = members.filter((record) => record.measures?.programPerWindow.some((value) => value !== null && value > 0))
    const points = [...new Map(counted.map((record) => [pointOf(record), record])).entries()]
      .sort(([a], [b]) => semver.compare(a, b))
      .map(([at, record]) => ({
        at,
        publishedAt: record.publishedAt,
        programInstructionsPerRequest:
        /** @type {NonNullable<TimelineRecord['measures']>} */ (record.measures).programInstructionsPerRequest ??
        /** @type {NonNullable<TimelineRecord['measures']>} */ (record.measures).instructionsPerRequest,
        settled: settledCount(record),
        record
      }))
    const countedAt = new Set(points.map((point) => point.at))
    return {
      along,
      key: { framework, runtime: along === 'releases' ? second : null, release: along === 'node' ? second : null, scenario, countingId },
      points,
      steps: points.slice(1).flatMap((point, index) => stepBetween(points[index], point)),
      notCounted: members.filter((record) => record.status !== 'ok' && !countedAt.has(pointOf(record)))
    }
  })
}

/** @param {LinePoint} before @param {LinePoint} after @returns {Step[]} the step between them, or none */
function stepBetween (before, after) {
  const windows = (/** @type {LinePoint} */ point) =>
    /** @type {number[]} */ (point.record.measures?.programPerWindow.filter((value) => value !== null && value > 0))
  const { steps, ...step } = countStep(windows(before), windows(after))
  return steps ? [{ from: before.at, to: after.at, fromId: before.record.id, toId: after.record.id, ...step }] : []
}

/**
 * Whether a count settled: its own verdict where its warm-up rule gave one (count-settle.js), and for every count, every window within
 * SETTLED_WITHIN of their median.
 * @param {TimelineRecord} record a counted one @returns {boolean}
 */
function settledCount (record) {
  if (record.measures?.warmup?.settled === false) return false
  const windows = /** @type {number[]} */ (record.measures?.programPerWindow.filter((value) => value !== null && value > 0) ?? [])
  const middle = median(windows)
  return windows.every((value) => Math.abs(value - middle) <= SETTLED_WITHIN * middle)
}

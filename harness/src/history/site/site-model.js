// @ts-check
// What the site shows, worked out from the records of one or more data directories: per framework, each scenario's measures by
// release with one series per runtime (and counting settings), the steps found on each line and the releases not counted; per
// runtime, every framework across its releases by publish date; and the steps along Node releases. Everything drawn is a record's
// figure, linked to its file.
import { createHash } from 'node:crypto'
import semver from 'semver'
import { timelineLines } from '../timeline/change-points.js'

/**
 * @typedef {import('../timeline/timeline-dataset.js').TimelineRecord} TimelineRecord
 * @typedef {import('../timeline/change-points.js').Line} Line
 *
 * @typedef {object} SitePoint
 * @property {string} at a release, or a Node version
 * @property {string | null} publishedAt
 * @property {number | null} value null: this measure was not taken for the count
 * @property {boolean} settled false: the count's windows had not settled (change-points.js)
 * @property {string} recordId
 *
 * @typedef {object} SiteSeries
 * @property {string} name
 * @property {SitePoint[]} points
 * @property {{ at: string, label: string }[]} marks the steps, drawn at the release where they happened
 *
 * @typedef {object} SiteChart
 * @property {string} id
 * @property {string} title
 * @property {string} unit
 * @property {'category' | 'time'} axis category: releases in release order; time: by publish date
 * @property {string[]} categories the x axis of a category chart, in order
 * @property {SiteSeries[]} series
 */

/** The measures drawn, each from a record's measures. */
export const SITE_MEASURES = Object.freeze([
  {
    name: 'program',
    title: 'Program instructions per request',
    unit: 'instructions',
    /** @param {NonNullable<TimelineRecord['measures']>} measures */
    of: (measures) => measures.programInstructionsPerRequest ?? measures.instructionsPerRequest
  },
  {
    name: 'syscalls',
    title: 'Writes and reads (system calls) per request',
    unit: 'calls',
    /** @param {NonNullable<TimelineRecord['measures']>} measures */
    of: (measures) => measures.syscallsPerRequest ? measures.syscallsPerRequest.writes + measures.syscallsPerRequest.reads : null
  },
  {
    name: 'allocation',
    title: 'Bytes allocated per request',
    unit: 'bytes',
    /** @param {NonNullable<TimelineRecord['measures']>} measures */
    of: (measures) => measures.allocatedBytesPerRequest
  }
])

/**
 * A file name for something named in data: letters and digits of the name, and a hash of all of it, so that two names never
 * share a page and no name leaves the site's directory.
 * @param {string} kind @param {string} name
 */
export const pageOf = (kind, name) =>
  `${kind}-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'x'}-` +
  `${createHash('sha256').update(name).digest('hex').slice(0, 8)}.html`

/**
 * @param {TimelineRecord[]} records
 */
export function siteModel (records) {
  const lines = timelineLines(records)
  const releaseLines = lines.filter((line) => line.along === 'releases')
  const frameworks = [...new Set(records.map((record) => record.key.framework))].sort()
  const runtimes = [...new Set(records.map((record) => record.key.runtime))].sort()
  // A line's series is named by its runtime, and by its counting settings where one runtime has several.
  const settingsOn = (/** @type {string} */ framework, /** @type {string | null} */ runtime, /** @type {string} */ scenario) =>
    new Set(
      releaseLines
        .filter((line) => line.key.framework === framework && line.key.runtime === runtime && line.key.scenario === scenario)
        .map((line) => line.key.countingId)
    ).size
  return {
    frameworks: frameworks.map((framework) => {
      const own = releaseLines.filter((line) => line.key.framework === framework)
      const scenarios = [...new Set(own.map((line) => line.key.scenario))].sort()
      return {
        name: framework,
        page: pageOf('framework', framework),
        scenarios: scenarios.map((scenario) => {
          const ofScenario = own.filter((line) => line.key.scenario === scenario)
          const categories = [...new Set(ofScenario.flatMap((line) => [...line.points.map((point) => point.at),
            ...line.notCounted.map((record) => record.key.release)]))].sort(semver.compare)
          const seriesName = (/** @type {Line} */ line) => `${line.key.runtime}${settingsOn(framework, line.key.runtime, scenario) > 1
            ? ` (counting ${line.key.countingId})`
            : ''}`
          return {
            name: scenario,
            charts: SITE_MEASURES.map((measure) => ({
              id: `${framework}|${scenario}|${measure.name}`,
              title: measure.title,
              unit: measure.unit,
              axis: /** @type {const} */ ('category'),
              categories,
              series: ofScenario.map((line) => ({
                name: seriesName(line),
                points: line.points.map((point) => ({
                  at: point.at,
                  publishedAt: point.publishedAt,
                  value: measure.of(/** @type {NonNullable<TimelineRecord['measures']>} */ (point.record.measures)),
                  settled: point.settled,
                  recordId: point.record.id
                })),
                marks: measure.name === 'program'
                  ? line.steps.map((step) => ({ at: step.to, label: `${step.changePct > 0 ? '+' : ''}${step.changePct}%` }))
                  : []
              }))
            })),
            steps: ofScenario.flatMap((line) => line.steps.map((step) => ({ series: seriesName(line), ...step }))),
            unsettled: ofScenario.flatMap((line) => line.points.filter((point) => !point.settled).map((point) => ({
              series: seriesName(line), release: point.at, windows: point.record.measures?.programPerWindow ?? [], recordId: point.record.id
            }))),
            notCounted: ofScenario.flatMap((line) => line.notCounted.map((record) => ({
              series: seriesName(line), release: record.key.release, status: record.status, reason: record.reason, recordId: record.id
            })))
          }
        })
      }
    }),
    runtimes: runtimes.map((runtime) => {
      const own = releaseLines.filter((line) => line.key.runtime === runtime)
      const scenarios = [...new Set(own.map((line) => line.key.scenario))].sort()
      return {
        name: runtime,
        page: pageOf('runtime', runtime),
        scenarios: scenarios.map((scenario) => ({
          name: scenario,
          chart: {
            id: `${runtime}|${scenario}`,
            title: `${SITE_MEASURES[0].title}, every framework by publish date`,
            unit: SITE_MEASURES[0].unit,
            axis: /** @type {const} */ ('time'),
            categories: [],
            series: own
              .filter((line) => line.key.scenario === scenario)
              .map((line) => ({
                name: settingsOn(line.key.framework, runtime, scenario) > 1
                  ? `${line.key.framework} (counting ${line.key.countingId})`
                  : line.key.framework,
                points: line.points
                  .filter((point) => point.publishedAt)
                  .map((point) => ({
                    at: point.at,
                    publishedAt: point.publishedAt,
                    value: point.programInstructionsPerRequest,
                    settled: point.settled,
                    recordId: point.record.id
                  })),
                marks: line.steps.map((step) => ({ at: step.to, label: `${step.changePct > 0 ? '+' : ''}${step.changePct}%` }))
              }))
          }
        }))
      }
    }),
    nodeSteps: lines.filter((line) => line.along === 'node').map((line) => ({
      framework: line.key.framework,
      release: line.key.release,
      scenario: line.key.scenario,
      countingId: line.key.countingId,
      points: line.points.map((point) => ({ at: point.at, value: point.programInstructionsPerRequest, recordId: point.record.id })),
      steps: line.steps
    })),
    records: records.length
  }
}

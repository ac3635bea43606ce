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
 * @typedef {import('../timeline/change-points.js').Step} Step
 * @typedef {(typeof SITE_MEASURES)[number]} SiteMeasure
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
 * The site's pages: one per framework, one per runtime, and the steps along Node releases.
 * @param {TimelineRecord[]} records
 */
export function siteModel (records) {
  const lines = timelineLines(records)
  const releaseLines = lines.filter((line) => line.along === 'releases')
  return {
    frameworks: distinctSorted(records.map((record) => record.key.framework)).map((framework) => frameworkPage(releaseLines, framework)),
    runtimes: distinctSorted(records.map((record) => record.key.runtime)).map((runtime) => runtimePage(releaseLines, runtime)),
    nodeSteps: lines.filter((line) => line.along === 'node').map(nodeStepLine),
    records: records.length
  }
}

/** @template T @param {T[]} values @returns {T[]} each value once, sorted as strings */
const distinctSorted = (values) => [...new Set(values)].sort()

/**
 * Whether the lines of a line's framework, runtime and scenario were counted with several counting settings: its series is then named
 * by its counting settings besides its runtime (or framework).
 * @param {Line[]} releaseLines @param {Line['key']} key
 * @returns {boolean}
 */
const countedWithSeveralSettings = (releaseLines, key) => new Set(
  releaseLines
    .filter((line) => line.key.framework === key.framework && line.key.runtime === key.runtime && line.key.scenario === key.scenario)
    .map((line) => line.key.countingId)
).size > 1

/** @param {Step} step @returns {{ at: string, label: string }} the step's mark, at the release it came to */
const stepMark = (step) => ({ at: step.to, label: `${step.changePct > 0 ? '+' : ''}${step.changePct}%` })

/**
 * A framework's page: per scenario, a chart of each measure by release, one series per runtime.
 * @param {Line[]} releaseLines @param {string} framework
 */
function frameworkPage (releaseLines, framework) {
  const own = releaseLines.filter((line) => line.key.framework === framework)
  return {
    name: framework,
    page: pageOf('framework', framework),
    scenarios: distinctSorted(own.map((line) => line.key.scenario))
      .map((scenario) => frameworkScenario(releaseLines, framework, scenario, own.filter((line) => line.key.scenario === scenario)))
  }
}

/**
 * One scenario of a framework's page: its charts, and the steps, the unsettled counts and the releases not counted on its lines.
 * @param {Line[]} releaseLines every line, to tell which runtimes have several counting settings
 * @param {string} framework @param {string} scenario @param {Line[]} lines the framework's lines of the scenario
 */
function frameworkScenario (releaseLines, framework, scenario, lines) {
  const seriesName = (/** @type {Line} */ line) => `${line.key.runtime}${countedWithSeveralSettings(releaseLines, line.key)
    ? ` (counting ${line.key.countingId})`
    : ''}`
  const categories = releaseCategories(lines)
  return {
    name: scenario,
    charts: SITE_MEASURES.map((measure) => ({
      id: `${framework}|${scenario}|${measure.name}`,
      title: measure.title,
      unit: measure.unit,
      axis: /** @type {const} */ ('category'),
      categories,
      series: lines.map((line) => releaseSeries(line, seriesName(line), measure))
    })),
    steps: lines.flatMap((line) => line.steps.map((step) => ({ series: seriesName(line), ...step }))),
    unsettled: lines.flatMap((line) => line.points.filter((point) => !point.settled).map((point) => ({
      series: seriesName(line), release: point.at, windows: point.record.measures?.programPerWindow ?? [], recordId: point.record.id
    }))),
    notCounted: lines.flatMap((line) => line.notCounted.map((record) => ({
      series: seriesName(line), release: record.key.release, status: record.status, reason: record.reason, recordId: record.id
    })))
  }
}

/** @param {Line[]} lines @returns {string[]} the x axis of their charts: every release counted or not, in release order */
const releaseCategories = (lines) => [...new Set(lines.flatMap((line) => [...line.points.map((point) => point.at),
  ...line.notCounted.map((record) => record.key.release)]))].sort(semver.compare)

/**
 * A line's series on a measure's chart of releases; the steps are marked on the program's chart only.
 * @param {Line} line @param {string} name @param {SiteMeasure} measure
 * @returns {SiteSeries}
 */
function releaseSeries (line, name, measure) {
  return {
    name,
    points: line.points.map((point) => ({
      at: point.at,
      publishedAt: point.publishedAt,
      value: measure.of(/** @type {NonNullable<TimelineRecord['measures']>} */ (point.record.measures)),
      settled: point.settled,
      recordId: point.record.id
    })),
    marks: measure.name === 'program' ? line.steps.map(stepMark) : []
  }
}

/**
 * A runtime's page: per scenario, every framework's program instructions by publish date.
 * @param {Line[]} releaseLines @param {string} runtime
 */
function runtimePage (releaseLines, runtime) {
  const own = releaseLines.filter((line) => line.key.runtime === runtime)
  return {
    name: runtime,
    page: pageOf('runtime', runtime),
    scenarios: distinctSorted(own.map((line) => line.key.scenario)).map((scenario) => ({
      name: scenario,
      chart: publishDateChart(releaseLines, runtime, scenario, own.filter((line) => line.key.scenario === scenario))
    }))
  }
}

/**
 * @param {Line[]} releaseLines every line, to tell which frameworks have several counting settings
 * @param {string} runtime @param {string} scenario @param {Line[]} lines the runtime's lines of the scenario
 * @returns {SiteChart}
 */
function publishDateChart (releaseLines, runtime, scenario, lines) {
  return {
    id: `${runtime}|${scenario}`,
    title: `${SITE_MEASURES[0].title}, every framework by publish date`,
    unit: SITE_MEASURES[0].unit,
    axis: /** @type {const} */ ('time'),
    categories: [],
    series: lines.map((line) => ({
      name: countedWithSeveralSettings(releaseLines, line.key)
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
      marks: line.steps.map(stepMark)
    }))
  }
}

/** @param {Line} line a line along Node releases, for one release of a framework */
const nodeStepLine = (line) => ({
  framework: line.key.framework,
  release: line.key.release,
  scenario: line.key.scenario,
  countingId: line.key.countingId,
  points: line.points.map((point) => ({ at: point.at, value: point.programInstructionsPerRequest, recordId: point.record.id })),
  steps: line.steps
})

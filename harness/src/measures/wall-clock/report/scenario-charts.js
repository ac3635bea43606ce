// @ts-check
// What report.html draws of a wall-clock run, per scenario: req/s per subject with its interval and rank group, latency over time, the
// latency distribution, the connection sweep, the SUT's cpu and memory over time, and requests per cpu-second; every series from the
// result files.
import { median } from 'simple-statistics'
import { atMachineLimit } from '../../../load/engines/index.js'
import { mergedLatencyDistributionMs } from '../../../records/merge-histograms.js'
import { runLabels } from '../../../records/run-labels.js'
import { rankGroupText } from '../../../records/rank-text.js'
import { scenarioProtocolText } from '../../../records/result-protocol.js'
import { contractPlace } from '../../../records/scenario-order.js'
import { roundTo } from '../../../platform/util/numbers.js'

/**
 * @typedef {import('../../../records/result-record.js').ResultRecord} ResultRecord
 * @typedef {'generator-bound' | 'machine-limit' | 'invalid' | 'disturbed'} BarFlag what makes a req/s bar not a figure of the framework
 *   (generator-bound: the load generator's limit; machine-limit: the native engine's, the fastest here; invalid: the req/s of runs
 *   that answered wrong under load; disturbed: other processes or the hypervisor took a share of the SUT's or the generator's cpus in
 *   a run drawn)
 * @typedef {{ name: string, values: (number | null)[], interval95: ([number, number] | null)[], ranks: (string | null)[], flags?:
 *   (BarFlag[])[] }} BarSeries per bar: its 95% interval, its rank group (`2–4`; null where the run has no rank groups)
 * @typedef {{ name: string, points: [number, number][], group?: string, dashed?: boolean }} LineSeries x, y; group: lines of one SUT share
 *   a colour; dashed: its tail line
 * @typedef {object} ScenarioCharts
 * @property {string} scenario
 * @property {string} summary
 * @property {string | null} protocol what its connections spoke (`h2 over TLSv1.3, 8 streams`); null for HTTP/1.1 in cleartext
 * @property {{ categories: string[], series: BarSeries[] }} throughput req/s per subject (the geometric mean of its runs), one
 *   series per run
 * @property {{ series: LineSeries[], warmupEndSec: number, stableAfter: { name: string, atSec: number }[] }} latencyOverTime p50 and p99
 *   per subject, seconds since load began
 * @property {{ series: LineSeries[] }} latencyDistribution percentile → ms per subject
 * @property {{ throughput: LineSeries[], p99: LineSeries[] } | null} connectionSweep null when one level only
 * @property {{ cpu: LineSeries[], rss: LineSeries[] }} resourcesOverTime SUT CPU (% of one core) and RSS (MiB), seconds since load began
 * @property {{ categories: string[], series: BarSeries[] }} requestsPerCpuSec
 */

const MIB = 2 ** 20

/**
 * Every scenario of the runs, in the contract's order, with its charts.
 * @param {import('../../../records/read-run.js').RunData[]} runs
 * @param {{ scenarioSummaries?: Record<string, string> }} [options]
 * @returns {ScenarioCharts[]}
 */
export function scenarioChartsOf (runs, { scenarioSummaries = {} } = {}) {
  const labels = runLabels(runs)
  const sideBySide = runs.length > 1
  /** @type {{ runLabel: string, run: import('../../../records/read-run.js').RunData, record: ResultRecord }[]} */
  const entries = runs.flatMap((run, index) => run.records.map((record) => ({ runLabel: labels[index], run, record })))
  const scenarioNames = [...new Set(entries.map((entry) => entry.record.scenario.name))].sort((a, b) => contractPlace(a) - contractPlace(b))
  return scenarioNames.map((scenario) => scenarioCharts(
    scenario,
    scenarioSummaries[scenario] ?? '',
    entries.filter((entry) => entry.record.scenario.name === scenario),
    { labels, sideBySide }
  ))
}

/**
 * @param {string} scenario
 * @param {string} summary
 * @param {{ runLabel: string, run: import('../../../records/read-run.js').RunData, record: ResultRecord }[]} entries this scenario's
 *   records of every run
 * @param {{ labels: string[], sideBySide: boolean }} context
 * @returns {ScenarioCharts}
 */
function scenarioCharts (scenario, summary, entries, { labels, sideBySide }) {
  const { levels, cells, subjects } = topLevelCells(entries)
  const drawn = { labels, cells, subjects }
  const named = (/** @type {Cell} */ cell) => subjectName(cell, sideBySide)
  const representatives = representativeRuns(cells)
  return {
    scenario,
    summary,
    protocol: scenarioProtocolText(entries.map((entry) => entry.record)),
    throughput: {
      categories: subjects,
      series: barSeries(drawn, {
        value: (cell) => cell.aggregate?.requestsPerSec.center ?? invalidMedian(cell),
        interval: (cell) => cell.aggregate?.requestsPerSec.interval95 ?? null,
        flags: throughputFlags,
        rank: (cell) => rankGroupText(cell.aggregate)
      })
    },
    latencyOverTime: latencyOverTime(representatives, named),
    latencyDistribution: { series: latencyDistributions(cells, named) },
    connectionSweep: levels.length < 2 ? null : connectionSweep(entries, sideBySide),
    resourcesOverTime: resourcesOverTime(representatives, named),
    requestsPerCpuSec: {
      categories: subjects,
      series: barSeries(drawn, { value: medianRequestsPerCpuSec, interval: () => null })
    }
  }
}

/**
 * @param {{ subject: string, runLabel: string }} cell @param {boolean} sideBySide
 * @returns {string} the cell's subject, with its run's label where runs are side by side
 */
const subjectName = (cell, sideBySide) => sideBySide ? `${cell.subject} · ${cell.runLabel}` : cell.subject

/**
 * @typedef {object} BarFigures what a bar chart draws of a cell
 * @property {(cell: Cell) => number | null} value
 * @property {(cell: Cell) => [number, number] | null} interval its 95% interval
 * @property {(cell: Cell) => BarFlag[]} [flags] what makes the bar not a figure of the framework; absent: the series has no flags
 * @property {(cell: Cell) => string | null} [rank] its rank group; absent: none
 */

/**
 * One series per run that has cells, each with a bar per subject (null where the run has no cell of the subject).
 * @param {{ labels: string[], cells: Cell[], subjects: string[] }} drawn the runs' labels, and the cells and subjects drawn
 * @param {BarFigures} figures
 * @returns {BarSeries[]}
 */
function barSeries ({ labels, cells, subjects }, { value, interval, flags, rank = () => null }) {
  return labels
    .filter((label) => cells.some((cell) => cell.runLabel === label))
    .map((label) => {
      const byRun = subjects.map((subject) => cells.find((cell) => cell.subject === subject && cell.runLabel === label))
      return {
        name: label,
        values: byRun.map((cell) => cell ? value(cell) : null),
        interval95: byRun.map((cell) => cell ? interval(cell) : null),
        ranks: byRun.map((cell) => cell ? rank(cell) : null),
        ...(flags ? { flags: byRun.map((cell) => cell ? flags(cell) : []) } : {})
      }
    })
}

/** @param {Cell} cell @returns {number | null} the median of its ok runs' requests per cpu-second of the SUT */
function medianRequestsPerCpuSec (cell) {
  const values = okRecords(cell)
    .map((record) => record.summary?.requestsPerCpuSec)
    .filter((value) => typeof value === 'number')
  return values.length === 0 ? null : Math.round(median(/** @type {number[]} */ (values)))
}

/** @param {Cell[]} cells @returns {{ cell: Cell, record: ResultRecord }[]} each cell that has an ok run, with the run that stands for it */
const representativeRuns = (cells) => cells.flatMap((cell) => {
  const record = representative(cell)
  return record === null ? [] : [{ cell, record }]
})

/**
 * p50 and p99 of each representative run over time, the longest warm-up shaded and where each run's latency became stable.
 * @param {{ cell: Cell, record: ResultRecord }[]} representatives @param {(cell: Cell) => string} named
 * @returns {ScenarioCharts['latencyOverTime']}
 */
function latencyOverTime (representatives, named) {
  return {
    series: representatives.flatMap(({ cell, record }) => latencyLines(named(cell), record)),
    warmupEndSec: Math.max(0, ...representatives.map(({ record }) => phaseSeconds(record.warmup))),
    stableAfter: representatives
      .filter(({ record }) => typeof record.warmupAnalysis?.stableAfterMs === 'number')
      .map(({ cell, record }) => ({
        name: named(cell),
        atSec: roundTo(/** @type {number} */ (record.warmupAnalysis?.stableAfterMs) / 1000, 3)
      }))
  }
}

/**
 * The SUT's cpu (% of one core) and resident memory (MiB) over time in each representative run.
 * @param {{ cell: Cell, record: ResultRecord }[]} representatives @param {(cell: Cell) => string} named
 * @returns {ScenarioCharts['resourcesOverTime']}
 */
function resourcesOverTime (representatives, named) {
  return {
    cpu: representatives.map(({ cell, record }) => ({
      name: named(cell),
      points: resourceLine(record, (sample) => roundTo(sample.cpuUserPct + sample.cpuSystemPct, 3))
    })),
    rss: representatives.map(({ cell, record }) => ({
      name: named(cell),
      points: resourceLine(record, (sample) => roundTo(sample.rssBytes / MIB, 3))
    }))
  }
}

/**
 * Each cell's latency distribution, merged from its ok runs' histograms; a cell without one is left out.
 * @param {Cell[]} cells @param {(cell: Cell) => string} named
 * @returns {LineSeries[]}
 */
function latencyDistributions (cells, named) {
  return cells
    .map((cell) => ({
      name: named(cell),
      points: /** @type {[number, number][]} */ (
        mergedLatencyDistributionMs(
          okRecords(cell).map((record) => /** @type {NonNullable<ResultRecord['summary']>} */ (record.summary).latencyHistogramUs)
        ).map((point) => [point.percentile, point.latencyMs])
      )
    }))
    .filter((series) => series.points.length > 0)
}

/**
 * @typedef {{ subject: string, runLabel: string, records: ResultRecord[], aggregate: import('../../../records/aggregate-runs.js').Aggregate
 *   | null }} Cell
 * @typedef {{ runLabel: string, run: import('../../../records/read-run.js').RunData, record: ResultRecord }} Entry a record and the run it
 *   is of
 */

/**
 * The cells the single-level charts draw: those of the highest level a sweep reached (the one under most stress), the fastest subject
 * first by the best of its runs; lines and legends follow the same order.
 * @param {Entry[]} entries one scenario's records of every run
 * @returns {{ levels: number[], cells: Cell[], subjects: string[] }} levels: every level, lowest first
 */
export function topLevelCells (entries) {
  const levels = [...new Set(entries.map((entry) => entry.record.load.connections))].sort((a, b) => a - b)
  const level = levels[levels.length - 1]
  const cells = groupCells(entries.filter((entry) => entry.record.load.connections === level))
  const subjects = [...new Set(cells.map((cell) => cell.subject))]
  const best = (/** @type {string} */ subject) =>
    Math.max(...cells.filter((cell) => cell.subject === subject).map((cell) => cell.aggregate?.requestsPerSec.center ?? -1))
  subjects.sort((a, b) => best(b) - best(a))
  cells.sort((a, b) => subjects.indexOf(a.subject) - subjects.indexOf(b.subject))
  return { levels, cells, subjects }
}

/**
 * @param {{ runLabel: string, run: import('../../../records/read-run.js').RunData, record: ResultRecord }[]} entries one connection level
 * @returns {Cell[]}
 */
function groupCells (entries) {
  /** @type {Map<string, Cell>} */
  const cells = new Map()
  for (const { runLabel, run, record } of entries) {
    const subject = record.sut.label ?? record.sut.name
    const key = JSON.stringify([runLabel, subject])
    let cell = cells.get(key)
    if (!cell) {
      const aggregate = run.aggregates.find((entry) =>
        entry.sut === subject && entry.scenario === record.scenario.name && entry.connections === record.load.connections)
      cell = { subject, runLabel, records: [], aggregate: aggregate && aggregate.runs > 0 ? aggregate : null }
      cells.set(key, cell)
    }
    cell.records.push(record)
  }
  return [...cells.values()]
}

/** @param {Cell} cell */
const okRecords = (cell) => cell.records.filter((record) => record.status === 'ok' && record.summary)

/** @param {Cell} cell */
const invalidRecords = (cell) => cell.records.filter((record) => record.status === 'invalid' && record.summary)

/**
 * A cell with no valid run but runs that were measured and then found answering wrong: their median req/s,
 * drawn only as an invalid bar.
 * @param {Cell} cell
 */
function invalidMedian (cell) {
  const rates = invalidRecords(cell).map(
    (record) => /** @type {NonNullable<ResultRecord['summary']>} */ (record.summary).requestsPerSec.mean
  )
  return rates.length === 0 ? null : Math.round(median(rates))
}

/**
 * What makes a req/s bar not a figure of the framework: a run that went into it was generator-bound or disturbed, or the
 * bar is the req/s of invalid runs.
 * @param {Cell} cell
 * @returns {BarFlag[]}
 */
function throughputFlags (cell) {
  const drawn = cell.aggregate ? okRecords(cell) : invalidRecords(cell)
  /** @type {BarFlag[]} */
  const flags = []
  const bound = drawn.filter((record) => record.summary?.generatorBound)
  if (bound.some(atMachineLimit)) flags.push('machine-limit')
  else if (bound.length > 0) flags.push('generator-bound')
  if (!cell.aggregate && drawn.length > 0) flags.push('invalid')
  if (drawn.some((record) => record.interference?.disturbed)) flags.push('disturbed')
  return flags
}

/**
 * The run whose req/s is the median of its repeats: its timeline stands for the cell.
 * @param {Cell} cell
 * @returns {ResultRecord | null}
 */
export function representative (cell) {
  const ok = okRecords(cell).sort(
    (a, b) => /** @type {any} */ (a.summary).requestsPerSec.mean - /** @type {any} */ (b.summary).requestsPerSec.mean
  )
  return ok.length === 0 ? null : ok[Math.floor((ok.length - 1) / 2)]
}

/** @param {ResultRecord['warmup']} phase */
function phaseSeconds (phase) {
  if (!phase) return 0
  const windows = phase.timeseries ?? []
  return windows.length > 0 ? roundTo(windows.reduce((sum, window) => sum + window.durationMs, 0) / 1000, 3) : phase.durationSec
}

/**
 * p50 and p99 per window over warmup then measurement, as one timeline in seconds.
 * @param {string} name @param {ResultRecord} record
 * @returns {LineSeries[]}
 */
function latencyLines (name, record) {
  const offsetSec = phaseSeconds(record.warmup)
  const windows = [
    ...(record.warmup?.timeseries ?? []).map((window) => ({ window, atSec: window.startMs / 1000 })),
    ...(record.summary?.timeseries ?? []).map((window) => ({ window, atSec: offsetSec + window.startMs / 1000 }))
  ].filter(({ window }) => window.latencyMs !== null)
  const line = (/** @type {'p50' | 'p99'} */ key) =>
    /** @type {[number, number][]} */ (windows.map(({ window, atSec }) => [roundTo(atSec, 3), /** @type {any} */ (window.latencyMs)[key]]))
  return [
    { name: `${name} p50`, group: name, points: line('p50') },
    { name: `${name} p99`, group: name, dashed: true, points: line('p99') }
  ]
}

/**
 * A SUT resource over warmup then measurement, in seconds since load began. The sampler of the first
 * phase starts before the generator has started its load, and a phase's report ends when its load
 * ends, so load began `durationSec` before the first phase's report stopped; samples from before it
 * (the generator starting up) are left out.
 * @param {ResultRecord} record
 * @param {(sample: import('../../../platform/resources/resource-sampler.js').ResourceSample) => number} value
 * @returns {[number, number][]}
 */
function resourceLine (record, value) {
  const phases = [record.warmup, record.summary].filter((phase) => phase?.resources)
  if (phases.length === 0) return []
  const first = /** @type {NonNullable<ResultRecord['summary']>} */ (phases[0])
  const loadBeganMs = /** @type {NonNullable<typeof first.resources>} */ (first.resources).stoppedAtMs - first.durationSec * 1000
  return phases.flatMap((phase) => {
    const report = /** @type {NonNullable<NonNullable<ResultRecord['summary']>['resources']>} */ (
      /** @type {NonNullable<ResultRecord['summary']>} */ (phase).resources
    )
    return (report.targets.sut?.samples ?? [])
      .map(
        (sample) => /** @type {[number, number]} */ ([roundTo((report.startedAtMs + sample.tMs - loadBeganMs) / 1000, 3), value(sample)])
      )
      .filter(([atSec]) => atSec >= 0)
  })
}

/**
 * req/s and p99 against connections, one line per subject.
 * @param {{ runLabel: string, run: import('../../../records/read-run.js').RunData, record: ResultRecord }[]} entries every level
 * @param {boolean} sideBySide
 */
function connectionSweep (entries, sideBySide) {
  const cells = groupCellsByLevel(entries, sideBySide)
  /** @type {Map<string, { throughput: [number, number][], p99: [number, number][] }>} */
  const lines = new Map()
  for (const { name, connections, aggregate } of cells) {
    if (!aggregate) continue
    const line = lines.get(name) ?? { throughput: [], p99: [] }
    lines.set(name, line)
    line.throughput.push([connections, aggregate.requestsPerSec.center])
    if (aggregate.latencyMs) line.p99.push([connections, aggregate.latencyMs.p99])
  }
  const sorted = (/** @type {[number, number][]} */ points) => [...points].sort((a, b) => a[0] - b[0])
  return {
    throughput: [...lines].map(([name, line]) => ({ name, points: sorted(line.throughput) })),
    p99: [...lines].map(([name, line]) => ({ name, points: sorted(line.p99) }))
  }
}

/**
 * @param {{ runLabel: string, run: import('../../../records/read-run.js').RunData, record: ResultRecord }[]} entries
 * @param {boolean} sideBySide
 */
function groupCellsByLevel (entries, sideBySide) {
  const levels = [...new Set(entries.map((entry) => entry.record.load.connections))]
  return levels.flatMap((connections) => groupCells(entries.filter((entry) => entry.record.load.connections === connections))
    .map((cell) => ({ name: subjectName(cell, sideBySide), connections, aggregate: cell.aggregate })))
}

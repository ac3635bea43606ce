// @ts-check
// report.html of a real run, opened from file:// in Debian's chromium: every chart drawn with one
// series per SUT it shows, nothing fetched from the network, no console error, and a screenshot kept.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeReports } from '../../src/reports/report/write-reports.js'
import { PACKAGES_DIR } from '../../src/platform/paths.js'
import { loadSut } from '../../src/subjects/suts/discover-suts.js'
import { launchChromium, pageProblems } from '../support/browser.js'
import { fixtureSut } from '../support/fixture-suts.js'
import { trackRuns } from '../support/leftover-processes.js'
import { missing, skipNote } from '../support/needs.js'
import { runInTempDir } from '../support/run-fixture.js'

const SCREENSHOT_DIR = join(import.meta.dirname, '..', '..', 'test-output')
/** The legend entries of flagged bars: whether a run is generator-bound depends on the machine, so the series checks leave them out. */
const LEGEND = {
  generatorBound: "† generator-bound: the load generator's limit, not the framework's",
  machineLimit: '‡ limit of this machine: the native engine, the fastest here, was generator-bound',
  invalid: '✗ invalid: answered wrong under load, not a valid figure'
}
const FLAG_LEGENDS = Object.values(LEGEND)
const withoutFlagLegends = (/** @type {string[]} */ names) => names.filter((name) => !FLAG_LEGENDS.includes(name))
const runs = trackRuns()

const absent = missing('chromium')

describe.skipIf(absent)(`report.html in chromium${skipNote(absent)}`, () => {
  /** @type {Awaited<ReturnType<typeof runInTempDir>>} */
  let sweep
  /** @type {Awaited<ReturnType<typeof runInTempDir>>} */
  let second
  /** @type {Awaited<ReturnType<typeof launchChromium>>} */
  let browser

  beforeAll(async () => {
    // Two SUTs at two connection levels, twice each (CI whiskers), and one invalid and one skipped SUT.
    sweep = await runInTempDir({
      runs,
      suts: [loadSut(`${PACKAGES_DIR}node-http`), loadSut(`${PACKAGES_DIR}fastify`), fixtureSut('wrong-body'), fixtureSut('skipped-here')],
      scenarios: ['json'],
      levels: [5, 20],
      repeats: 2,
      load: { durationSec: 1, warmupSec: 0.5 }
    })
    // node-http, and a SUT that starts answering wrong under load: measured, then found invalid.
    second = await runInTempDir({
      runs,
      suts: [loadSut(`${PACKAGES_DIR}node-http`), fixtureSut('wrong-under-load')],
      scenarios: ['json'],
      connections: 20,
      load: { durationSec: 1, warmupSec: 0.5 }
    })
    browser = await launchChromium()
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    runs.expectNoneLeft(expect)
  })

  /**
   * Opens a report page and collects what the test checks.
   * @param {string} path
   * @param {string} screenshot
   */
  async function openReport (path, screenshot) {
    const page = await browser.context.newPage()
    const problems = pageProblems(page)
    await page.goto(pathToFileURL(path).href)
    await page.waitForFunction(() => /** @type {any} */ (globalThis).dynoRenderedCharts !== undefined, null, { timeout: 20_000 })
    const charts = await page.evaluate(() => [...globalThis.document.querySelectorAll('[data-chart]')].map((element) => {
      const instance = /** @type {any} */ (globalThis).echarts.getInstanceByDom(element)
      const canvas = element.querySelector('canvas')
      return {
        chart: element.getAttribute('data-chart'),
        series: instance ? instance.getOption().series.map((/** @type {{ name: string }} */ series) => series.name) : null,
        // Per bar of each bar series: its category and how it is marked (hatched, framed, its label's suffix).
        bars: instance
          ? instance.getOption().series
            .filter((/** @type {any} */ series) => series.type === 'bar')
            .map((/** @type {any} */ series) => series.data.map((/** @type {any} */ item, /** @type {number} */ index) => ({
              category: instance.getOption().yAxis[0].data[index],
              value: item !== null && typeof item === 'object' ? item.value : item,
              hatched: Boolean(item?.itemStyle?.decal),
              framed: item?.itemStyle?.borderType === 'dashed',
              label: item?.label?.formatter ? item.label.formatter({ value: item.value }) : null
            })))
          : null,
        legends: instance ? instance.getOption().legend.map((/** @type {any} */ legend) => legend.data ?? null) : null,
        // The names on the category axis (a rank group in them), and per whisker series its intervals and how many it drew.
        categories: instance?.getOption().yAxis?.[0]?.data ?? null,
        whiskers: instance
          ? instance.getModel().getSeriesByType('custom').map((/** @type {any} */ series) => {
            const data = series.getData()
            const indices = Array.from({ length: data.count() }, (_, index) => index)
            return {
              intervals: indices.map((index) => data.getRawDataItem(index).slice(0, 2)),
              // A whisker is a group of three lines: the span and its two caps.
              drawn: indices.filter((index) => data.getItemGraphicEl(index)?.childCount?.() === 3).length
            }
          })
          : null,
        drawn: Boolean(canvas && canvas.width > 0 && canvas.height > 0)
      }
    }))
    // The warnings, a folded line per cause: its summary, whether it is open, and the results below it.
    const warnings = await page.$$eval('#warnings details', (groups) => groups.map((group) => ({
      summary: group.querySelector('summary')?.textContent ?? '',
      open: group.hasAttribute('open'),
      results: [...group.querySelectorAll('li')].map((item) => item.textContent ?? '')
    })))
    mkdirSync(SCREENSHOT_DIR, { recursive: true })
    await page.screenshot({ path: join(SCREENSHOT_DIR, screenshot), fullPage: true })
    await page.close()
    return { charts, problems, warnings }
  }

  it('draws every chart of a sweep with repeats, one series per measured SUT, offline and without errors', async () => {
    const paths = writeReports([sweep.runDir])
    expect(paths).toEqual([join(sweep.runDir, 'report.md'), join(sweep.runDir, 'report.html')])
    const { charts, problems, warnings } = await openReport(paths[1], 'report-sweep.png')
    expect(problems).toEqual([])

    const measured = [...new Set(sweep.written.filter((record) => record.status === 'ok').map((record) => record.sut.label))].sort()
    expect(measured).toEqual(['fastify', 'node-http'])
    const byKind = Object.fromEntries(charts.map((chart) => [chart.chart, chart]))
    expect(Object.keys(byKind).sort())
      .toEqual(['cpu', 'latencyDistribution', 'latencyOverTime', 'requestsPerCpuSec', 'rss', 'sweepP99', 'sweepThroughput', 'throughput'])
    for (const chart of charts) expect(chart.drawn, `${chart.chart} has a drawn canvas`).toBe(true)
    const sorted = (/** @type {string[] | null} */ names) => [...(names ?? [])].sort()
    // Bars: one series for the run, plus its 95% interval whiskers (two repeats each), one drawn per measured SUT, and
    // each measured SUT named with its rank group.
    expect(withoutFlagLegends(sorted(byKind.throughput.series))).toEqual([sweep.runId, `${sweep.runId} 95% interval`])
    expect(byKind.throughput.whiskers?.map((whisker) => whisker.drawn)).toEqual([measured.length])
    expect(byKind.throughput.categories?.filter((name) => /^(fastify|node-http) \((1|2|1–2)\)$/.test(name))).toHaveLength(measured.length)
    const atTop = sweep.aggregates.filter((aggregate) => aggregate.connections === 20 && aggregate.rank)
    for (const aggregate of atTop) {
      const bar = byKind.throughput.categories?.findIndex((name) => name.startsWith(`${aggregate.sut} (`)) ?? -1
      expect(byKind.throughput.bars?.[0][bar].value, aggregate.sut).toBe(aggregate.requestsPerSec.center)
      expect(byKind.throughput.whiskers?.[0].intervals[bar], aggregate.sut).toEqual(aggregate.requestsPerSec.interval95)
    }
    expect(sorted(byKind.requestsPerCpuSec.series)).toEqual([sweep.runId])
    expect(sorted(byKind.latencyOverTime.series)).toEqual(measured.flatMap((name) => [`${name} p50`, `${name} p99`]))
    for (const kind of ['latencyDistribution', 'sweepThroughput', 'sweepP99', 'cpu', 'rss']) {
      expect(sorted(byKind[kind].series), kind).toEqual(measured)
    }

    // The runs that are not ok, a folded line per cause with its count, their reasons below it: the invalid fixture at both levels and
    // repeats, and the skipped one.
    const invalid = warnings.find((group) => group.summary.startsWith('invalid: 4 results (DYNO_ERR_RESPONSE_MISMATCH)'))
    expect(invalid?.results.filter((row) => row.startsWith('fixture-wrong-body × json'))).toHaveLength(4)
    const skipped = warnings.find((group) => group.summary.startsWith('skipped: 4 results'))
    expect(skipped?.results.filter((row) => row.startsWith('fixture-skipped-here × json') && row.includes('needs a machine this is not')))
      .toHaveLength(4)
    expect(warnings.every((group) => !group.open)).toBe(true)
    const markdown = readFileSync(paths[0], 'utf8')
    expect(markdown).toMatch(/\| fixture-skipped-here \|.*skipped \(run 1\): fixture: needs a machine this is not/)
    // report.md: the rank group first, the figure with its interval, and the spread between rounds under the table.
    const rows = markdown.split('\n').filter((line) => /^\| [^|]+ \| (fastify|node-http) \|/.test(line))
    expect(rows).toHaveLength(4)
    for (const row of rows) expect(row).toMatch(/^\| (1|2|1–2) \| (fastify|node-http) \| [^|]+ \| (5|20) \| [\d,]+ \| [\d,]+–[\d,]+ \|/)
    expect(markdown).toMatch(/- 20 connections: spread between rounds: ±\d+\.\d%/)
  }, 60_000)

  it('marks generator-bound and invalid req/s bars, with a legend that says why they are not figures of the framework', async () => {
    const invalid = second.written.find((record) => record.sut.name === 'fixture-wrong-under-load')
    expect(invalid).toMatchObject({ status: 'invalid', errorCode: 'DYNO_ERR_UNEXPECTED_UNDER_LOAD' })
    expect(invalid?.summary?.requestsPerSec.mean).toBeGreaterThan(0)
    // Whether a run is generator-bound depends on the machine; the report's part is to draw the flag it finds.
    const copy = join(second.runDir, '..', `${second.runId}-generator-bound`)
    cpSync(second.runDir, copy, { recursive: true })
    // Only node-http is flagged: a SUT this machine happened to measure generator-bound would add its own legend entry.
    for (const entry of second.index.results) {
      const path = join(copy, entry.file)
      const record = JSON.parse(readFileSync(path, 'utf8'))
      if (record.summary) writeFileSync(path, JSON.stringify({ ...record, summary: { ...record.summary, generatorBound: false } }))
    }
    const nodeHttpFile = join(copy, second.index.results.find((/** @type {{ sut: string }} */ entry) => entry.sut === 'node-http').file)
    const nodeHttp = JSON.parse(readFileSync(nodeHttpFile, 'utf8'))
    writeFileSync(nodeHttpFile, JSON.stringify({ ...nodeHttp, summary: { ...nodeHttp.summary, generatorBound: true } }))

    const { charts, problems } = await openReport(writeReports([copy])[1], 'report-flagged-bars.png')
    expect(problems).toEqual([])
    const throughput = charts.find((chart) => chart.chart === 'throughput')
    expect(throughput?.legends?.[1]).toEqual([LEGEND.generatorBound, LEGEND.invalid])
    const bars = throughput?.bars?.[0] ?? []
    expect(bars.find((bar) => bar.category === 'node-http')).toMatchObject({
      hatched: true,
      framed: false,
      label: expect.stringMatching(/ †$/)
    })
    expect(bars.find((bar) => bar.category === 'fixture-wrong-under-load')).toMatchObject({
      framed: true,
      label: expect.stringMatching(/ ✗ invalid$/)
    })
    // The native engine generator-bound: the limit of this machine, marked and hatched its own way.
    const nativeBound = {
      ...nodeHttp,
      load: { ...nodeHttp.load, engine: 'native' },
      summary: { ...nodeHttp.summary, generatorBound: true }
    }
    writeFileSync(nodeHttpFile, JSON.stringify(nativeBound))
    const atLimit = await openReport(writeReports([copy])[1], 'report-machine-limit-bars.png')
    expect(atLimit.problems).toEqual([])
    const limitChart = atLimit.charts.find((chart) => chart.chart === 'throughput')
    expect(limitChart?.legends?.[1]).toEqual([LEGEND.machineLimit, LEGEND.invalid])
    expect(limitChart?.bars?.[0].find((bar) => bar.category === 'node-http')).toMatchObject({
      hatched: true,
      label: expect.stringMatching(/ ‡$/)
    })
    // The other charts keep their plain bars, and an unflagged report has no flags' legend.
    expect(charts.find((chart) => chart.chart === 'requestsPerCpuSec')?.bars?.flat().some((bar) => bar.hatched || bar.framed)).toBe(false)
    const plain = await openReport(writeReports([sweep.runDir])[1], 'report-sweep.png')
    const plainThroughput = plain.charts.find((chart) => chart.chart === 'throughput')
    const sweepBound = sweep.written.some((record) => record.summary?.generatorBound)
    if (!sweepBound) expect(plainThroughput?.legends).toHaveLength(1)
  }, 60_000)

  it('sets two runs side by side: one bar series per run', async () => {
    const paths = writeReports([sweep.runDir, second.runDir])
    expect(paths.slice(-2)).toEqual([join(second.runDir, 'side-by-side.md'), join(second.runDir, 'side-by-side.html')])
    const { charts, problems } = await openReport(paths[paths.length - 1], 'report-side-by-side.png')
    expect(problems).toEqual([])
    const throughput = charts.find((chart) => chart.chart === 'throughput')
    const bars = withoutFlagLegends(throughput?.series ?? []).filter((name) => !name.endsWith('95% interval'))
    expect(bars).toEqual([sweep.runId, second.runId])
    const markdown = readFileSync(paths[paths.length - 2], 'utf8')
    const nodeHttp = second.aggregates.find((entry) => entry.sut === 'node-http')
    expect(markdown).toContain('| node-http | 20 |')
    expect(markdown).toContain(nodeHttp?.requestsPerSec.center.toLocaleString('en-US', { maximumFractionDigits: 0 }))
  }, 60_000)
})

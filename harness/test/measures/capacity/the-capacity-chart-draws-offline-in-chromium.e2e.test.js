// @ts-check
// report.html of a real capacity run (two SUTs, two launches each, short steps), opened from file:// in Debian's chromium: the capacity
// table, and per scenario one chart of latency against offered rate on a log axis: a p50 and a p99 line per launch of each SUT, the
// objective as a horizontal line at its bound, a diamond at each SUT's capacity; beside it the connections sweep, p99 against connections
// (log scales), a line per SUT through each level; nothing fetched, no console error, a screenshot kept.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeReports } from '../../../src/reports/report/write-reports.js'
import { capacity } from '../../../src/measures/capacity/capacity.js'
import { PACKAGES_DIR } from '../../../src/platform/paths.js'
import { loadSut } from '../../../src/subjects/suts/discover-suts.js'
import { launchChromium, pageProblems } from '../../support/browser.js'
import { fixtureSut } from '../../support/fixture-suts.js'
import { trackRuns } from '../../support/leftover-processes.js'
import { missing, skipNote } from '../../support/needs.js'
import { runInTempDir } from '../../support/run-fixture.js'

const SCREENSHOT_DIR = join(import.meta.dirname, '..', '..', '..', 'test-output')
const runs = trackRuns()
const absent = missing('chromium')

describe.skipIf(absent)(`the capacity chart in chromium${skipNote(absent)}`, () => {
  /** @type {Awaited<ReturnType<typeof runInTempDir>>} */
  let run
  /** @type {Awaited<ReturnType<typeof launchChromium>>} */
  let browser

  beforeAll(async () => {
    run = await runInTempDir({
      runs,
      suts: [loadSut(join(PACKAGES_DIR, 'node-http')), fixtureSut('cpu-work')],
      scenarios: ['json'],
      measure: capacity,
      repeats: 2,
      load: {
        engine: 'native',
        warmupSec: 0.2,
        durationSec: 0.5,
        capacity: { objective: 'p50<=5ms,p75<=50ms', minRatePerSec: 100, maxRatePerSec: 1200, stepSec: 0.2, sweepConnections: [4, 40] }
      }
    })
    browser = await launchChromium()
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    runs.expectNoneLeft(expect)
  })

  it('draws latency against offered rate per SUT, the objective and each capacity, offline', async () => {
    expect(run.written.map((record) => record.status)).toEqual(['ok', 'ok', 'ok', 'ok'])
    const [, htmlPath] = writeReports([run.runDir])
    const page = await browser.context.newPage()
    const problems = pageProblems(page)
    await page.goto(pathToFileURL(htmlPath).href)
    await page.waitForFunction(() => /** @type {any} */ (globalThis).dynoRenderedCharts !== undefined, null, { timeout: 20_000 })
    const chart = await page.evaluate(() => {
      const element = globalThis.document.querySelector('[data-capacity-chart]')
      const option = /** @type {any} */ (globalThis).echarts.getInstanceByDom(element).getOption()
      return {
        id: element?.id,
        yAxis: option.yAxis[0].type,
        series: option.series.map((/** @type {any} */ series) => ({
          id: series.id,
          type: series.type,
          points: series.data.length,
          marks: series.markLine?.data?.map((/** @type {any} */ mark) => mark.yAxis) ?? []
        })),
        canvas: Boolean(element?.querySelector('canvas'))
      }
    })
    const sweep = await page.evaluate(() => {
      const element = globalThis.document.querySelector('[data-sweep-chart]')
      const option = /** @type {any} */ (globalThis).echarts.getInstanceByDom(element).getOption()
      return {
        id: element?.id,
        axes: [option.xAxis[0].type, option.yAxis[0].type],
        series: option.series.map((/** @type {any} */ series) => ({
          id: series.id,
          connections: series.data.map((/** @type {any} */ point) => point.value[0])
        })),
        canvas: Boolean(element?.querySelector('canvas'))
      }
    })
    const table = await page.locator('table.capacity').first().innerText()
    const sweepTable = await page.locator('table.sweep').innerText()
    mkdirSync(SCREENSHOT_DIR, { recursive: true })
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'capacity-report.png'), fullPage: true })
    await page.close()
    expect(problems).toEqual([])
    expect(chart.id).toBe('chart-capacity-json')
    expect(chart.canvas).toBe(true)
    expect(chart.yAxis).toBe('log')
    // A p99 and a p50 line per launch of each SUT, each through every step it measured.
    for (const { sut, repeat } of run.written) {
      for (const percentile of ['p99', 'p50']) {
        const line = chart.series.find((series) => series.id === `${sut.label} ${percentile} launch ${repeat.index}`)
        expect(line?.type, `${sut.label} ${percentile} launch ${repeat.index}`).toBe('line')
        expect(line?.points).toBeGreaterThan(0)
      }
    }
    // The objective: one horizontal line per term, at its bound.
    expect(chart.series.find((series) => series.id === 'objective')?.marks).toEqual([5, 50])
    // A diamond at the capacity of each SUT that held a rate in every launch (one that held none in a launch is ranked after, unmarked).
    for (const sut of new Set(run.written.map((record) => record.sut.label))) {
      const launches = run.written.filter((record) => record.sut.label === sut).map((record) => record.capacity.capacityPerSec)
      const diamond = chart.series.find((series) => series.id === `${sut} capacity`)
      expect(diamond?.type ?? null, `${sut}: ${launches.join(', ')}`).toBe(launches.every((rate) => rate > 0) ? 'scatter' : null)
    }
    expect(table).toContain('capacity req/s')
    for (const { sut } of run.written) expect(table).toContain(sut.label)
    // The sweep beside it: a line per SUT through both levels (the medians of its launches), on log scales, and its table.
    expect(sweep).toMatchObject({ id: 'chart-sweep-json', axes: ['log', 'log'], canvas: true })
    expect(sweep.series).toEqual([...new Set(run.written.map((record) => record.sut.label))]
      .map((sut) => ({ id: `${sut} sweep`, connections: [4, 40] })))
    expect(sweepTable).toContain('failures from')
    for (const { sut } of run.written) expect(sweepTable).toContain(sut.label)
  })
})

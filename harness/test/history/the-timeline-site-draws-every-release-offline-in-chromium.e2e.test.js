// @ts-check
// The site of a timeline, from a data directory of real counts (test/fixtures/timeline-data: express's minor releases from 4.20
// to 5.1 on node@20, node@22 and node@24, json, counted here by `dyno timeline`), opened from file:// in Debian's chromium: every chart drawn with a
// line per runtime, the step found marked where it happened, nothing fetched, no console error; the figures also as tables,
// every one linked to its record; usable from the keyboard and at a phone's width. Screenshots are kept in test-output/.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { htmlReport } from '../../src/reports/report/html-report.js'
import { readRun } from '../../src/records/read-run.js'
import { pageOf } from '../../src/history/site/site-model.js'
import { idOf } from '../../src/history/timeline/timeline-dataset.js'
import { launchChromium, pageProblems } from '../support/browser.js'
import { FOUR_REPEATS } from '../support/compare-inputs.js'
import { missing, skipNote } from '../support/needs.js'
import { runCli } from '../support/run-cli.js'

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'timeline-data')
const SCREENSHOT_DIR = join(import.meta.dirname, '..', '..', 'test-output')
const absent = missing('chromium')
const work = mkdtempSync(join(tmpdir(), 'dyno-site-'))

describe.skipIf(absent)(`the timeline site in chromium${skipNote(absent)}`, () => {
  /** @type {Awaited<ReturnType<typeof launchChromium>>} */
  let browser
  const site = join(work, 'site')

  beforeAll(async () => {
    const result = await runCli(['site', FIXTURE, '--out', site, '--suite-run', FOUR_REPEATS])
    expect(result.code, result.stderr).toBe(0)
    browser = await launchChromium()
  })
  afterAll(async () => { await browser?.close() })

  /**
   * @param {string} file @param {{ width: number, height: number }} viewport @param {string} screenshot
   */
  async function open (file, viewport, screenshot) {
    const page = await browser.context.newPage()
    await page.setViewportSize(viewport)
    const problems = pageProblems(page)
    await page.goto(pathToFileURL(join(site, file)).href)
    await page.waitForFunction(() => globalThis.document.documentElement.dataset.chartsDrawn !== undefined, null, { timeout: 20_000 })
    mkdirSync(SCREENSHOT_DIR, { recursive: true })
    await page.screenshot({ path: join(SCREENSHOT_DIR, screenshot), fullPage: true })
    return { page, problems }
  }

  it('draws each measure of express by release, a line per runtime, with the step of 5.0 marked and listed', async () => {
    const { page, problems } = await open(pageOf('framework', 'express'), { width: 1400, height: 1000 }, 'timeline-site-express.png')
    expect(problems).toEqual([])
    const charts = await page.evaluate(() => [...globalThis.document.querySelectorAll('[data-chart-id]')].map((element) => {
      const option = /** @type {any} */ (globalThis).echarts.getInstanceByDom(element).getOption()
      return {
        id: element.getAttribute('data-chart-id'),
        categories: option.xAxis[0].data,
        series: option.series.map((/** @type {any} */ series) => ({
          name: series.name, points: series.data.length, marks: series.markPoint.data.map((/** @type {any} */ mark) => mark.coord[0])
        })),
        drawn: (element.querySelector('canvas')?.width ?? 0) > 0,
        // The value axis as drawn: its lowest and highest figure.
        yExtent: /** @type {any} */ (globalThis).echarts.getInstanceByDom(element).getModel().getComponent('yAxis').axis.scale.getExtent(),
        caption: element.parentElement?.querySelector('figcaption')?.textContent ?? ''
      }
    }))
    expect(charts.map((chart) => chart.id)).toEqual(['express|json|program', 'express|json|syscalls', 'express|json|allocation'])
    for (const chart of charts) {
      expect(chart.drawn).toBe(true)
      // Every axis starts at zero, and says so: a few percent is not drawn as a cliff, and the steps table gives the size.
      expect(chart.yExtent[0], chart.id).toBe(0)
      expect(chart.yExtent[1], chart.id).toBeGreaterThan(0)
      expect(chart.caption, chart.id).toMatch(/the axis starts at zero/)
      expect(chart.categories).toEqual(['4.20.0', '4.21.2', '4.22.3', '5.0.1', '5.1.0'])
      expect(chart.series.map((series) => `${series.name} ${series.points}`)).toEqual(['node@20 5', 'node@22 5', 'node@24 5'])
    }
    // The step from 4.x to 5.x marked at the first 5.x release where the counts find it (node@20, node@22; node@24's counts had not
    // settled, timeline-steps-are-found-against-each-counts-own-spread says why); nothing marked within a major.
    expect(charts[0].series.map((series) => series.marks)).toEqual([['5.0.1'], ['5.0.1'], []])
    const tables = await page.$$eval('section table', (elements) => elements.map((element) => element.textContent ?? ''))
    expect(tables[3]).toMatch(/node@22\s*4\.22\.3\s*5\.0\.1\s*\+/)
    // Each release along the Node releases it was counted on, with its steps: express's own rows of the overview's table.
    expect(tables[4]).toMatch(/express@4\.22\.3\s*json\s*Node 20\.20\.2: [\d,]+\s*Node 22\.23\.3: [\d,]+\s*Node 24\.21\.0/)
    expect(tables[4]).toMatch(/22\.23\.3 → 24\.21\.0: -\d/)
    expect(tables[4].match(/express@/g)).toHaveLength(5)
    // node@24's counts, listed with their windows as not settled.
    expect(tables[5]).toMatch(/4\.20\.0\s*node@24/)
    expect(tables[5].match(/node@24/g)).toHaveLength(5)
    // Every figure of a chart's table links its record, which the site holds.
    const links = await page.$$eval('details a', (anchors) => anchors.map((anchor) => anchor.getAttribute('href')))
    expect(links.length).toBe(3 * 3 * 5)
    for (const link of links) expect(existsSync(join(site, String(link)))).toBe(true)
    await page.close()
  })

  it('starts the axis of every framework by publish date at zero too', async () => {
    const { page, problems } = await open(pageOf('runtime', 'node@22'), { width: 1400, height: 1000 }, 'timeline-site-node22.png')
    expect(problems).toEqual([])
    const extents = await page.evaluate(() => [...globalThis.document.querySelectorAll('[data-chart-id]')].map((element) =>
      /** @type {any} */ (globalThis).echarts.getInstanceByDom(element).getModel().getComponent('yAxis').axis.scale.getExtent()))
    expect(extents.length).toBeGreaterThan(0)
    for (const extent of extents) expect(extent[0]).toBe(0)
    await page.close()
  })

  it('carries the latest suite run\'s report as a page of its own, linked from every page', async () => {
    // The page is the run's report.html as `dyno report` writes it.
    expect(readFileSync(join(site, 'suite.html'), 'utf8')).toBe(htmlReport([readRun(FOUR_REPEATS)]))
    for (const file of ['index.html', pageOf('framework', 'express'), pageOf('runtime', 'node@22')]) {
      expect(readFileSync(join(site, file), 'utf8'), file).toContain('<a href="suite.html">Latest suite run</a>')
    }
  })

  it('is usable from the keyboard and at a phone\'s width', async () => {
    const { page, problems } = await open('index.html', { width: 390, height: 844 }, 'timeline-site-phone.png')
    expect(problems).toEqual([])
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => globalThis.document.activeElement?.textContent)).toBe('Skip to the figures')
    await page.keyboard.press('Enter')
    expect(await page.evaluate(() => globalThis.location.hash)).toBe('#main')
    // Nothing wider than the phone: tables scroll inside their own box.
    expect(await page.evaluate(() => globalThis.document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await page.close()
    const framework = await open(pageOf('framework', 'express'), { width: 390, height: 844 }, 'timeline-site-express-phone.png')
    expect(framework.problems).toEqual([])
    expect(await framework.page.evaluate(() => globalThis.document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await framework.page.close()
  })

  it('writes names from data as text, and never over a directory that is not a site', async () => {
    // A record whose framework, release and reason carry HTML, under the id of its key as dyno would write it.
    const hostile = join(work, 'hostile-data')
    cpSync(FIXTURE, hostile, { recursive: true })
    const [first] = readdirSync(join(hostile, 'records'))
    const record = JSON.parse(readFileSync(join(hostile, 'records', first), 'utf8'))
    const key = { ...record.key, framework: 'x<script>alert(1)</script>', release: '1.0.0' }
    const forged = { ...record, key, status: 'failed', measures: null, reason: '<img src=x onerror=alert(2)>', id: idOf(key, 'failed') }
    writeFileSync(join(hostile, 'records', `${forged.id}.json`), JSON.stringify(forged))
    const result = await runCli(['site', hostile, '--out', join(work, 'hostile-site')])
    expect(result.code, result.stderr).toBe(0)
    for (const file of readdirSync(join(work, 'hostile-site')).filter((name) => name.endsWith('.html'))) {
      const html = readFileSync(join(work, 'hostile-site', file), 'utf8')
      expect(html, file).not.toContain('<script>alert')
      expect(html, file).not.toContain('<img src=x')
    }
    expect(readFileSync(join(work, 'hostile-site', pageOf('framework', key.framework)), 'utf8')).toContain('x&#60;script&#62;alert(1)')
    const foreign = join(work, 'foreign')
    mkdirSync(foreign)
    writeFileSync(join(foreign, 'notes.txt'), 'mine')
    const refused = await runCli(['site', FIXTURE, '--out', foreign])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain(`DYNO_ERR_PATH: \`--out\` ${foreign} holds files and is not a site dyno wrote`)
    expect(readFileSync(join(foreign, 'notes.txt'), 'utf8')).toBe('mine')
  })
})

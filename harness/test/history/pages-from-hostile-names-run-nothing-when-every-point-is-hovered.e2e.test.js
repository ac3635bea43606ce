// @ts-check
// ECharts inserts a tooltip's string as HTML. A site built from a data directory whose framework, runtime and scenario names
// (and a release's reason) carry script, and a report.html of a run whose SUT label does, are opened in Debian's chromium and
// every point of every chart is hovered with the mouse (every step's mark too; every item of report.html is shown by ECharts'
// own showTip): no dialog opens, no script sets its flag, no element is injected, and each tooltip shows the name as text.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pageOf } from '../../src/history/site/site-model.js'
import { idOf } from '../../src/history/timeline/timeline-dataset.js'
import { launchChromium, pageProblems } from '../support/browser.js'
import { copyOfRun, FOUR_REPEATS } from '../support/compare-inputs.js'
import { missing, skipNote } from '../support/needs.js'
import { runCli } from '../support/run-cli.js'

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'timeline-data')
const absent = missing('chromium')
const work = mkdtempSync(join(tmpdir(), 'dyno-hostile-pages-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** Each sets a flag of its own when it runs, and opens a dialog. @param {string} flag */
const script = (flag) => `<img src=x onerror="window.${flag}=1;alert('${flag}')"><script>window.${flag}=1</script>`
const FRAMEWORK = `express${script('pwnedFramework')}`
/** @param {string} runtime */
const hostileRuntime = (runtime) => `${runtime}${script('pwnedRuntime')}`
const SCENARIO = `json${script('pwnedScenario')}`
const FLAGS = ['pwnedFramework', 'pwnedRuntime', 'pwnedScenario', 'pwnedReason', 'pwnedLabel']

/** The committed data directory with script in every name, each record under the id of its new key, as dyno would write it. */
function hostileDataset () {
  const dir = join(work, 'data')
  cpSync(FIXTURE, dir, { recursive: true })
  for (const name of readdirSync(join(dir, 'records'))) {
    const path = join(dir, 'records', name)
    const record = JSON.parse(readFileSync(path, 'utf8'))
    rmSync(path)
    const key = { ...record.key, framework: FRAMEWORK, runtime: hostileRuntime(record.key.runtime), scenario: SCENARIO }
    const hostile = { ...record, key, id: idOf(key, record.status) }
    writeFileSync(join(dir, 'records', `${hostile.id}.json`), JSON.stringify(hostile))
  }
  // A release that was not counted, with script in its reason too.
  const [first] = readdirSync(join(dir, 'records'))
  const record = JSON.parse(readFileSync(join(dir, 'records', first), 'utf8'))
  const key = { ...record.key, release: '5.2.0' }
  const failed = {
    ...record,
    key,
    status: 'failed',
    measures: null,
    reason: script('pwnedReason'),
    errorCode: 'DYNO_ERR_SUT_EXITED',
    id: idOf(key, 'failed')
  }
  writeFileSync(join(dir, 'records', `${failed.id}.json`), JSON.stringify(failed))
  return dir
}

/**
 * What ran on a page: the flags set, and the elements that could run script (images, frames, anything with an event handler
 * attribute, scripts), to be compared with what the page held when it loaded.
 * @param {import('playwright-core').Page} page
 */
async function whatRan (page) {
  return page.evaluate((flags) => ({
    flags: flags.filter((flag) => /** @type {any} */ (globalThis)[flag] !== undefined),
    elements: [...globalThis.document.querySelectorAll('img, iframe, object, embed, script, [onerror], [onload], [onclick], [onmouseover]')]
      .map((element) => element.outerHTML.slice(0, 200))
  }), FLAGS)
}

describe.skipIf(absent)(`pages from hostile names in chromium${skipNote(absent)}`, () => {
  /** @type {Awaited<ReturnType<typeof launchChromium>>} */
  let browser
  const site = join(work, 'site')

  beforeAll(async () => {
    const built = await runCli(['site', hostileDataset(), '--out', site])
    expect(built.code, built.stderr).toBe(0)
    browser = await launchChromium()
  }, 60_000)
  afterAll(async () => { await browser?.close() })

  /** @param {string} path */
  async function open (path) {
    const page = await browser.context.newPage()
    /** @type {string[]} */
    const dialogs = []
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message())
      dialog.dismiss().catch(() => {})
    })
    const problems = pageProblems(page)
    await page.goto(pathToFileURL(path).href)
    const loaded = await whatRan(page)
    expect(loaded.flags, path).toEqual([])
    return { page, dialogs, problems, loaded }
  }

  it('runs nothing on any page of the site when every point and every step\'s mark is hovered, and shows each name as text', async () => {
    const runtimes = ['node@20', 'node@22', 'node@24'].map((runtime) => pageOf('runtime', hostileRuntime(runtime)))
    const pages = [pageOf('framework', FRAMEWORK), ...runtimes, 'index.html']
    let hovered = 0
    for (const file of pages) {
      const { page, dialogs, problems, loaded } = await open(join(site, file))
      await page.waitForFunction(() => globalThis.document.documentElement.dataset.chartsDrawn !== undefined, null, { timeout: 20_000 })
      const charts = page.locator('[data-chart-id]')
      for (let chartIndex = 0; chartIndex < await charts.count(); chartIndex++) {
        await charts.nth(chartIndex).scrollIntoViewIfNeeded()
        // Where each point and each step's mark is in the viewport (a mark's pin stands above its point).
        const targets = await page.evaluate((index) => {
          const element = globalThis.document.querySelectorAll('[data-chart-id]')[index]
          const instance = /** @type {any} */ (globalThis).echarts.getInstanceByDom(element)
          const box = element.getBoundingClientRect()
          return instance.getOption().series.flatMap((/** @type {any} */ series, /** @type {number} */ seriesIndex) => [
            ...series.data.map((/** @type {any} */ item) => ({ value: item.value, lift: 0 })),
            ...series.markPoint.data.map((/** @type {any} */ mark) => ({ value: mark.coord, lift: 22 }))
          ].map(({ value, lift }) => {
            const [x, y] = instance.convertToPixel({ seriesIndex }, value)
            return { x: box.left + x, y: box.top + y - lift }
          }))
        }, chartIndex)
        expect(targets.length, file).toBeGreaterThan(0)
        for (const target of targets) {
          await page.mouse.move(0, 0)
          await page.mouse.move(target.x, target.y, { steps: 2 })
          // The tooltip shows the series' name as the text it is (or, read as markup, its script runs and the test ends below).
          await page.waitForFunction(
            ({ index, flags }) =>
              flags.some((flag) => /** @type {any} */ (globalThis)[flag] !== undefined) ||
              /onerror/.test(/** @type {any} */ (globalThis.document.querySelectorAll('[data-chart-id]')[index]).innerText),
            { index: chartIndex, flags: FLAGS },
            { timeout: 5000 }
          )
          if ((await whatRan(page)).flags.length > 0) break
          hovered += 1
        }
      }
      expect({ ...await whatRan(page), dialogs }, file).toEqual({ ...loaded, dialogs: [] })
      expect(problems, file).toEqual([])
      await page.close()
    }
    // 3 charts × 3 runtimes × 6 releases on the framework's page, one chart × 6 on each runtime's, and the marks.
    expect(hovered).toBeGreaterThanOrEqual(3 * 3 * 5 + 3 * 5)
  }, 180_000)

  it('runs nothing in report.html when every item of every chart and of the overview\'s heat map shows its tooltip', async () => {
    const dir = copyOfRun(FOUR_REPEATS)
    const index = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'))
    for (const entry of index.results) {
      const path = join(dir, entry.file)
      const record = JSON.parse(readFileSync(path, 'utf8'))
      record.sut.label = `node-http${script('pwnedLabel')}`
      writeFileSync(path, JSON.stringify(record))
    }
    const reported = await runCli(['report', dir])
    expect(reported.code, reported.stderr).toBe(0)
    const { page, dialogs, problems, loaded } = await open(join(dir, 'report.html'))
    await page.waitForFunction(() => /** @type {any} */ (globalThis).dynoRenderedCharts !== undefined, null, { timeout: 20_000 })
    const shown = await page.evaluate(async () => {
      let items = 0
      // The scenarios' charts and the overview's heat map.
      for (const element of globalThis.document.querySelectorAll('[data-chart], [data-overview]')) {
        const instance = /** @type {any} */ (globalThis).echarts.getInstanceByDom(element)
        if (!instance) continue
        element.scrollIntoView()
        const series = instance.getOption().series
        for (let seriesIndex = 0; seriesIndex < series.length; seriesIndex++) {
          for (let dataIndex = 0; dataIndex < (series[seriesIndex].data ?? []).length; dataIndex++) {
            instance.dispatchAction({ type: 'showTip', seriesIndex, dataIndex })
            await new Promise((resolve) => globalThis.requestAnimationFrame(resolve))
            items += 1
          }
        }
      }
      return items
    })
    expect(shown).toBeGreaterThan(0)
    expect({ ...await whatRan(page), dialogs }).toEqual({ ...loaded, dialogs: [] })
    expect(problems).toEqual([])
    await page.close()
  }, 120_000)
})

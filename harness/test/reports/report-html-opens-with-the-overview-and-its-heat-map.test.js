// @ts-check
// report.html of a committed real run, opened from file:// in Debian's chromium: the overview's table and its heat map come before the
// environment and the first scenario's section, each cell as the overview says it, the warnings a folded line per cause, nothing
// fetched, no page error; a screenshot of the overview kept.
import { cpSync, mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeReports } from '../../src/reports/report/write-reports.js'
import { measureOfRun } from '../../src/measures/index.js'
import { overviewCellText } from '../../src/measures/overview-text.js'
import { warningGroups } from '../../src/measures/warning-groups.js'
import { readRun } from '../../src/records/read-run.js'
import { launchChromium, pageProblems } from '../support/browser.js'
import { missing, skipNote } from '../support/needs.js'

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'overview-run', 'quick-4-scenarios-disturbed')
const SCREENSHOT_DIR = join(import.meta.dirname, '..', '..', 'test-output')
const absent = missing('chromium')

describe.skipIf(absent)(`report.html's overview in chromium${skipNote(absent)}`, () => {
  /** @type {Awaited<ReturnType<typeof launchChromium>>} */
  let browser
  beforeAll(async () => { browser = await launchChromium() }, 60_000)
  afterAll(async () => { await browser?.close() })

  it('opens with the overview and its heat map above the first scenario, the warnings folded, without a page error', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'dyno-overview-html-')), 'run')
    cpSync(FIXTURE, dir, { recursive: true })
    const [, html] = writeReports([dir])
    const run = readRun(dir)
    const overview = measureOfRun(run).report.overview(run)
    if (!overview) throw new Error('the fixture run has no overview')

    const page = await browser.context.newPage()
    const problems = pageProblems(page)
    await page.goto(pathToFileURL(html).href)
    await page.waitForFunction(() => /** @type {any} */ (globalThis).dynoOverviewsDrawn !== undefined, null, { timeout: 20_000 })
    const seen = await page.evaluate(() => {
      const top = (/** @type {string} */ selector) => globalThis.document.querySelector(selector)?.getBoundingClientRect().top ?? null
      const heatmap = globalThis.document.querySelector('#heatmap-0')
      const canvas = heatmap?.querySelector('canvas')
      return {
        drawn: /** @type {any} */ (globalThis).dynoOverviewsDrawn,
        canvas: Boolean(canvas && canvas.width > 0 && canvas.height > 0),
        tops: {
          overview: top('#overview-0'), heatmap: top('#heatmap-0'), warnings: top('#warnings'), scenario: top('section[id^="scenario-"]')
        },
        caveat: globalThis.document.querySelector('#overview-0 p.caveat')?.textContent ?? null,
        head: [...globalThis.document.querySelectorAll('table.overview thead th')].map((cell) => cell.textContent),
        rows: [...globalThis.document.querySelectorAll('table.overview tbody tr')]
          .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent)),
        backgrounds: [...globalThis.document.querySelectorAll('table.overview tbody td.figure')]
          .map((cell) => /** @type {any} */ (cell).style.background),
        warnings: [...globalThis.document.querySelectorAll('#warnings details')].map((group) => ({
          summary: group.querySelector('summary')?.textContent ?? '',
          open: group.hasAttribute('open'),
          results: group.querySelectorAll('li').length,
          shown: /** @type {any} */ (group.querySelector('li'))?.checkVisibility() ?? false
        }))
      }
    })
    expect(problems).toEqual([])
    // The overview first, its heat map under it, then the warnings, and only then the first scenario.
    const { overview: overviewTop, heatmap, warnings, scenario } = seen.tops
    if ([overviewTop, heatmap, warnings, scenario].includes(null)) throw new Error(`missing: ${JSON.stringify(seen.tops)}`)
    expect(overviewTop).toBeLessThan(heatmap)
    expect(heatmap).toBeLessThan(warnings)
    expect(warnings).toBeLessThan(scenario)
    // The heat map: a cell per framework and column the run measured, drawn.
    expect(seen.canvas).toBe(true)
    expect(seen.drawn).toEqual([{
      id: 'heatmap-0',
      rows: overview.rows.length,
      columns: overview.columns.length,
      cells: overview.rows.flatMap((row) => row.cells.filter(Boolean)).length
    }])
    // The table: every cell as the overview writes it, coloured on its column's scale.
    expect(seen.caveat).toMatch(/^noise: rounds spread ±[\d.]+ % .*15 % needs --repeats \d+/)
    expect(seen.head).toEqual(['framework', 'version', ...overview.columns])
    expect(seen.rows).toEqual(overview.rows.map((row) => [row.framework, row.version, ...row.cells.map(overviewCellText)]))
    expect(seen.backgrounds.every((background) => /^(rgb|hsl)/.test(background))).toBe(true)
    // The warnings: a line per cause with its count, the results folded (hidden) below it.
    const groups = warningGroups(run.records)
    expect(seen.warnings.map((group) => group.summary)).toEqual(groups.map((group) => group.line))
    expect(seen.warnings.map((group) => group.results)).toEqual(groups.map((group) => group.details.length))
    expect(seen.warnings.every((group) => !group.open && !group.shown)).toBe(true)

    mkdirSync(SCREENSHOT_DIR, { recursive: true })
    await (await page.$('#overview-0'))?.screenshot({ path: join(SCREENSHOT_DIR, 'report-overview.png') })
    await page.close()
  }, 60_000)
})

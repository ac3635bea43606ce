// @ts-check
// report.html and report.md of a committed real run whose rank groups were made on cost (`--rank-by cost`), opened from file:// in
// Debian's chromium: the overview says its ranks are on cost, each cell carries its rank group beside the cost, the heat map is drawn
// with its title naming the figure and no page error, and report.md's scenario tables head their rank column "rank on cost".
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { measureOfRun } from '../../src/measures/index.js'
import { overviewCellText } from '../../src/measures/overview-text.js'
import { aggregateRuns } from '../../src/records/aggregate-runs.js'
import { readRun } from '../../src/records/read-run.js'
import { writeReports } from '../../src/reports/report/write-reports.js'
import { launchChromium, pageProblems } from '../support/browser.js'
import { missing, skipNote } from '../support/needs.js'

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'overview-run', 'quick-4-scenarios-disturbed')
const absent = missing('chromium')

/** The fixture as a run ranked on cost writes itself: run.json's rankBy, and the aggregates ranked on cost. @returns {string} */
function costRankedRun () {
  const dir = join(mkdtempSync(join(tmpdir(), 'dyno-rank-by-cost-')), 'run')
  cpSync(FIXTURE, dir, { recursive: true })
  const indexPath = join(dir, 'run.json')
  const index = JSON.parse(readFileSync(indexPath, 'utf8'))
  writeFileSync(indexPath, JSON.stringify({ ...index, rankBy: { figure: 'cost', by: 'given' } }))
  const aggregatesPath = join(dir, 'aggregates.json')
  const written = JSON.parse(readFileSync(aggregatesPath, 'utf8'))
  const aggregates = aggregateRuns(readRun(dir).records, { seed: index.seed, rankBy: 'cost' })
  writeFileSync(aggregatesPath, JSON.stringify({ ...written, aggregates }))
  return dir
}

describe.skipIf(absent)(`report.html of a run ranked on cost${skipNote(absent)}`, () => {
  /** @type {Awaited<ReturnType<typeof launchChromium>>} */
  let browser
  beforeAll(async () => { browser = await launchChromium() }, 60_000)
  afterAll(async () => { await browser?.close() })

  it('says its ranks are on cost, writes each group beside the cost, and draws the heat map without a page error', async () => {
    const dir = costRankedRun()
    const [markdown, html] = writeReports([dir])
    const run = readRun(dir)
    expect(run.aggregates.filter((aggregate) => aggregate.rank).every((aggregate) => aggregate.rankedBy === 'cost')).toBe(true)
    const overview = measureOfRun(run).report.overview(run)
    if (!overview) throw new Error('the fixture run has no overview')
    expect(readFileSync(markdown, 'utf8')).toContain('| rank on cost | framework | version |')

    const page = await browser.context.newPage()
    const problems = pageProblems(page)
    await page.goto(pathToFileURL(html).href)
    await page.waitForFunction(() => /** @type {any} */ (globalThis).dynoOverviewsDrawn !== undefined, null, { timeout: 20_000 })
    const seen = await page.evaluate(() => ({
      drawn: /** @type {any} */ (globalThis).dynoOverviewsDrawn,
      note: globalThis.document.querySelector('#overview-0 p.note')?.textContent ?? '',
      rows: [...globalThis.document.querySelectorAll('table.overview tbody tr')]
        .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent))
    }))
    expect(problems).toEqual([])
    expect(seen.drawn).toHaveLength(1)
    expect(seen.note).toContain('Ranked on cost (--rank-by cost), lower first')
    expect(seen.rows).toEqual(overview.rows.map((row) => [row.framework, row.version, ...row.cells.map(overviewCellText)]))
    const cells = seen.rows.flatMap((row) => row.slice(2))
    expect(cells.filter((text) => /µs \d+%~ \(\d(–\d)?\)$/.test(String(text))).length).toBeGreaterThan(10)
    await page.close()
  }, 60_000)
})

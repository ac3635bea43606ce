// @ts-check
// `--rank-by cost`: the rank groups are made on the SUT's cpu µs per request, where lower is better, so the cheapest cell of a column ranks
// first however fast it is; a cell whose SUT was not cpu-bound is ranked too, and keeps its `~`. The overview places each rank group
// beside the cost, orders and shades by the cost, and says which figure the ranks are on, in the terminal, report.md and report.html;
// a run re-read later ranks as run.json records. The figures are those of a committed real run (every cell there is marked `~`).
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { formatOverview } from '../../src/interface/ui/overview-table.js'
import { overviewMarkdown } from '../../src/measures/overview-text.js'
import { wallClockOverview } from '../../src/measures/wall-clock/report/overview.js'
import { aggregateRuns, rankScenario } from '../../src/records/aggregate-runs.js'
import { readRun } from '../../src/records/read-run.js'
import { overviewSection } from '../../src/reports/report/overview-html.js'

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'overview-run', 'quick-4-scenarios-disturbed')

/** @param {number[]} rates @param {number[] | null} costs @param {string | null} [notCpuBound] */
const cell = (rates, costs, notCpuBound = null) => ({
  rates,
  cost: costs && { cpuUsPerRequestRuns: costs, center: 0, cpuSource: /** @type {const} */ ('proc'), sutCpuSharePct: 90, notCpuBound }
})

describe('the direction of a rank', () => {
  // A fast SUT that spends much cpu on each request (it has more cpus to spend), and a slow one that spends little.
  const fastCostly = cell([1000, 1100, 1050], [50, 52, 51])
  const slowCheap = cell([500, 520, 510], [20, 21, 20.5], 'its scenario waits on I/O')

  it('on req/s, the highest first', () => {
    const [fast, slow] = rankScenario([fastCostly, slowCheap], 'req/s')
    expect(fast).toMatchObject({ rankedBy: 'req/s', ranked: { rank: { best: 1, worst: 1 } } })
    expect(slow).toMatchObject({ rankedBy: 'req/s', ranked: { rank: { best: 2, worst: 2 } } })
  })

  it('on cost, the lowest first, a cell that was not cpu-bound ranked as any other, with its interval around its cost', () => {
    const [fast, slow] = rankScenario([fastCostly, slowCheap], 'cost')
    expect(slow).toMatchObject({ rankedBy: 'cost', ranked: { rank: { best: 1, worst: 1 }, separatedFromNext: true } })
    expect(fast).toMatchObject({ rankedBy: 'cost', ranked: { rank: { best: 2, worst: 2 }, separatedFromNext: null } })
    const [low, high] = /** @type {[number, number]} */ (slow.costInterval95)
    expect(low).toBeLessThan(20.5)
    expect(high).toBeGreaterThan(20.5)
    // Req/s is still the cell's own figure.
    expect(fast.requests.center).toBeGreaterThan(slow.requests.center)
  })

  it('on req/s where a cell of the column has no cost', () => {
    expect(rankScenario([fastCostly, cell([500, 520], null)], 'cost').map((ranking) => ranking.rankedBy)).toEqual(['req/s', 'req/s'])
  })
})

describe('a real run ranked on cost', () => {
  const run = readRun(FIXTURE)
  const aggregates = aggregateRuns(run.records, { seed: run.index.seed, rankBy: 'cost' })
  const costRun = { ...run, index: { ...run.index, rankBy: { figure: 'cost', by: 'given' } }, aggregates }

  it('ranks the cheapest of each column first and the costliest last', () => {
    const ranked = aggregates.filter((aggregate) => aggregate.rank && aggregate.cpuCost)
    expect(ranked.length).toBeGreaterThan(10)
    for (const scenario of new Set(ranked.map((aggregate) => aggregate.scenario))) {
      const column = ranked.filter((aggregate) => aggregate.scenario === scenario)
      expect(column.every((aggregate) => aggregate.rankedBy === 'cost' && aggregate.cpuCost?.notCpuBound)).toBe(true)
      const byCost = [...column].sort((a, b) => Number(a.cpuCost?.center) - Number(b.cpuCost?.center))
      expect(byCost[0].rank?.best).toBe(1)
      expect(byCost[byCost.length - 1].rank?.worst).toBe(column.length)
    }
  })

  it('says so in the overview of the terminal, report.md and report.html, the group beside the cost, the ~ kept', () => {
    const overview = wallClockOverview(costRun)
    if (!overview) throw new Error('the fixture run has no overview')
    expect(overview.rankedOn).toBe('cpu µs/request, lower first')
    const markdown = overviewMarkdown(overview).join('\n')
    expect(markdown).toContain('Ranked on cost (`--rank-by cost`), lower first')
    // `652 · 366 µs 20%~ (2–4)`: the rank group after the cost and its mark, none after req/s.
    expect(markdown).toMatch(/\| [\d,]+ \\?[!†‡?✗\\]* ?· [\d.]+ µs \d+%~ \(\d(–\d)?\) \|/)
    expect(markdown).not.toMatch(/\| [\d,]+ \(\d(–\d)?\)/)
    expect(formatOverview(overview, { width: 200 }).replace(/\s+/g, ' ')).toContain('ranked on cpu µs/request, lower first')
    expect(overviewSection(overview, 0, 'Overview')).toContain('Ranked on cost (--rank-by cost), lower first')
    // Rows best first by cost: in every column, no framework above the first row is cheaper than it is in all of them.
    const first = overview.rows[0]
    const last = overview.rows[overview.rows.length - 1]
    const share = (/** @type {typeof first} */ row) =>
      row.cells.reduce((sum, entry) => sum + Math.log(entry?.cost?.cpuUsPerRequest ?? 1), 0)
    expect(share(first)).toBeLessThan(share(last))
  })

  it('is ranked on cost again when its aggregates are computed again from run.json', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rank-by-cost-'))
    cpSync(FIXTURE, dir, { recursive: true })
    const indexPath = join(dir, 'run.json')
    writeFileSync(indexPath, JSON.stringify({ ...JSON.parse(readFileSync(indexPath, 'utf8')), rankBy: { figure: 'cost', by: 'given' } }))
    // Aggregates of an earlier version (no center): read back, they are made again from the records.
    const aggregatesPath = join(dir, 'aggregates.json')
    const written = JSON.parse(readFileSync(aggregatesPath, 'utf8'))
    for (const aggregate of written.aggregates) delete aggregate.requestsPerSec.center
    writeFileSync(aggregatesPath, JSON.stringify(written))
    const again = readRun(dir)
    expect(again.aggregates.map((aggregate) => [aggregate.sut, aggregate.scenario, aggregate.rankedBy, aggregate.rank]))
      .toEqual(aggregates.map((aggregate) => [aggregate.sut, aggregate.scenario, aggregate.rankedBy, aggregate.rank]))
  })
})

// @ts-check
// Under the overview's req/s, on a committed run: a table of each framework's cpu µs per request with the share of its cpus, in the same
// rows and columns, within the terminal's width, marked where the SUT was not cpu-bound, and a legend that names where the cpu was read
// and that steal and other processes' cpu are not in it.
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { formatOverview } from '../../src/interface/ui/overview-table.js'
import { costFigure } from '../../src/measures/overview-cost.js'
import { measureOfRun } from '../../src/measures/index.js'
import { readRun } from '../../src/records/read-run.js'

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'overview-run', 'quick-4-scenarios-disturbed')
const run = readRun(FIXTURE)
const overview = measureOfRun(run).report.overview(run)
if (!overview) throw new Error('the fixture run has no overview')

it('draws the cost table under req/s in the same rows and columns, each cost its aggregate\'s, within 80 columns', () => {
  const text = formatOverview(overview, { width: 80 })
  const lines = text.split('\n')
  for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80)
  const at = lines.findIndex((line) => line.startsWith('cpu µs/req '))
  expect(at).toBeGreaterThan(overview.rows.length)
  expect(lines[at].split(/\s+/).slice(2)).toEqual(lines[0].split(/\s+/).slice(1))
  const rows = lines.slice(at + 1, at + 1 + overview.rows.length)
  expect(rows.map((row) => row.split(/\s+/)[0])).toEqual(overview.rows.map((row) => row.framework))
  for (const row of rows) {
    const framework = row.split(/\s+/)[0]
    const aggregate = run.aggregates.find((entry) => entry.sut === framework && entry.scenario === 'plaintext')
    const cost = aggregate?.cpuCost
    if (!cost) throw new Error(`${framework} has no plaintext cost`)
    const marked = cost.notCpuBound === null ? '' : '~'
    expect(row.slice(framework.length).trim().startsWith(`${costFigure(cost.center)} µs ${Math.round(Number(cost.sutCpuSharePct))}%` +
      `${marked} `)).toBe(true)
  }
  const legend = text.replace(/\n\s+/g, ' ')
  expect(legend).toContain('cpu µs/req: µs of the SUT\'s cpu per request')
  expect(legend).toContain('read from its processes in /proc, so steal and other processes\' cpu are never in it')
  expect(legend).toMatch(/~ not cpu-bound \(the SUT used < \d+% of its cpus, or its scenario waits on I\/O\)/)
})

it('draws no cost table for an overview without costs', () => {
  const text = formatOverview({ ...overview, costNote: null }, { width: 80 })
  expect(text).not.toContain('cpu µs/req')
})

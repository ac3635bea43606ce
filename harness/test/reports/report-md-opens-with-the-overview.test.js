// @ts-check
// report.md of a committed real run: the overview first (a row per framework, best first, each cell its aggregate's figure with its
// rank group and marks, the legend of what it uses), then the warnings a line per cause with the results under it, the scenarios'
// tables, and at the end the table of every round.
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { markdownReport } from '../../src/reports/report/markdown-report.js'
import { measureOfRun } from '../../src/measures/index.js'
import { warningGroups } from '../../src/measures/warning-groups.js'
import { readRun } from '../../src/records/read-run.js'
import { formatInteger } from '../../src/platform/text/format.js'
import { costFigure } from '../../src/measures/overview-cost.js'

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'overview-run', 'quick-4-scenarios-disturbed')

it('opens with the overview, then the warnings by cause, the scenarios, and every round at the end', () => {
  const run = readRun(FIXTURE)
  const report = markdownReport(run)
  const lines = report.split('\n')
  const overview = measureOfRun(run).report.overview(run)
  if (!overview) throw new Error('the fixture run has no overview')

  const at = (/** @type {string} */ heading) => lines.indexOf(heading)
  expect(at('## Overview')).toBe(2)
  expect(at('## Overview')).toBeLessThan(at('## Warnings'))
  expect(at('## Warnings')).toBeLessThan(at('## plaintext'))
  expect(at('## plaintext')).toBeLessThan(at('## Every round'))
  expect(at('## Every round')).toBeLessThan(at('## Environment'))

  const table = lines.slice(at('## Overview') + 2, at('## Overview') + 4 + overview.rows.length)
  expect(table[0]).toBe('| framework | version | plaintext | json | params | fibonacci |')
  expect(table.slice(2).map((row) => row.split(' | ')[0].slice(2))).toEqual(overview.rows.map((row) => row.framework))
  for (const row of table.slice(2)) {
    const [framework, , ...cells] = row.slice(2, -2).split(' | ')
    for (const [column, text] of cells.entries()) {
      const aggregate = run.aggregates.find((entry) => entry.sut === framework && entry.scenario === overview.columns[column])
      if (!aggregate) throw new Error(`${framework} × ${overview.columns[column]} has no aggregate`)
      const marks = overview.rows.find((entry) => entry.framework === framework)?.cells[column]?.marks.join('') ?? ''
      const group = aggregate.rank && aggregate.noise
        ? ` \\(${aggregate.rank.best}${aggregate.rank.best === aggregate.rank.worst ? '' : `–${aggregate.rank.worst}`}\\)`
        : ''
      const marked = marks ? ` \\${marks.split('').join('\\')}` : ''
      // Beside req/s, the cpu cost of a request and the share of its cpus, marked where the SUT was not cpu-bound (every cell here:
      // the machine was shared).
      const cost = aggregate.cpuCost
        ? ` · ${costFigure(aggregate.cpuCost.center).replace('.', '\\.')} µs ${Math.round(Number(aggregate.cpuCost.sutCpuSharePct))}%` +
          (aggregate.cpuCost.notCpuBound ? '~' : '')
        : ''
      expect(text).toMatch(new RegExp(`^${formatInteger(aggregate.requestsPerSec.center)}${group}${marked}${cost}$`))
    }
  }
  const legend = lines[at('## Overview') + 5 + overview.rows.length]
  expect(legend).toContain('the rank group, (2–4): the data places it anywhere from 2nd to 4th in its column')
  expect(legend).toContain('! disturbed')
  expect(legend).toContain('Beside req/s: µs of the SUT\'s cpu per request')
  expect(legend).toContain('so steal and other processes\' cpu are never in it')
  expect(legend).toContain('~ not cpu-bound')
  expect(lines[at('## Overview') + 7 + overview.rows.length]).toMatch(/^\*\*noise: rounds spread ±[\d.]+ % .*15 % needs `--repeats \d+`/)

  // The warnings: each cause's line with its count, the results it stands for under it.
  const warnings = lines.slice(at('## Warnings') + 2, at('## plaintext') - 1)
  const groups = warningGroups(run.records)
  expect(warnings.filter((line) => line.startsWith('- '))).toEqual(groups.map((group) => `- ${group.line}`))
  expect(warnings.filter((line) => line.startsWith('  - '))).toHaveLength(groups.reduce((sum, group) => sum + group.details.length, 0))

  // Every round, in the order they ran.
  const rounds = lines.slice(at('## Every round')).filter((line) => /^\| (?!framework|---)/.test(line))
  expect(rounds).toHaveLength(run.records.length)
  expect(rounds[0].startsWith(`| ${run.records[0].sut.label} | ${run.records[0].scenario.name} | ${run.records[0].repeat.index}/2 | ` +
    `${formatInteger(run.records[0].summary?.requestsPerSec.mean)} |`)).toBe(true)
})

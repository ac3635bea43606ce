// @ts-check
// The overview that ends `dyno run`, on a committed real run: within an 80-column terminal, every abbreviation explained once,
// more columns on a wider terminal, coloured only when asked, the warnings a line per cause with its count; and through the command
// line, the table of every round and the results behind each warning only with --verbose.
import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { compactFigure, formatOverview } from '../../src/interface/ui/overview-table.js'
import { warningLines } from '../../src/interface/ui/warning-lines.js'
import { measureOfRun } from '../../src/measures/index.js'
import { warningGroups } from '../../src/measures/warning-groups.js'
import { readRun } from '../../src/records/read-run.js'
import { shortRun } from '../support/dyno-run.js'
import { trackRuns } from '../support/leftover-processes.js'
import { runCli } from '../support/run-cli.js'

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'overview-run', 'quick-4-scenarios-disturbed')
const run = readRun(FIXTURE)
const overview = measureOfRun(run).report.overview(run)
if (!overview) throw new Error('the fixture run has no overview')
const runs = trackRuns()

/** The names of the columns a header line shows. @param {string} text */
const headerColumns = (text) => text.split('\n')[0].trim().split(/\s+/).slice(1)

describe('the overview on a committed run', () => {
  it('fits an 80-column terminal: a row per framework, best first, each figure its aggregate\'s, every abbreviation explained once', () => {
    const text = formatOverview(overview, { width: 80 })
    const lines = text.split('\n')
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80)
    expect(lines[0]).toMatch(/^framework\s+plaintext\s+json\s+params\s+fibonacci$/)
    const frameworks = [...new Set(run.records.map((record) => record.sut.label))]
    const rows = lines.slice(1, 1 + frameworks.length)
    expect(rows.map((row) => row.split(/\s+/)[0]).toSorted()).toEqual(frameworks.toSorted())
    expect(rows.map((row) => row.split(/\s+/)[0])).toEqual(overview.rows.map((row) => row.framework))
    // The first column of each row: the aggregate's figure abbreviated, its rank group, its marks.
    for (const row of rows) {
      const framework = row.split(/\s+/)[0]
      const aggregate = run.aggregates.find((entry) => entry.sut === framework && entry.scenario === 'plaintext')
      if (!aggregate) throw new Error(`${framework} has no plaintext aggregate`)
      const figure = compactFigure(aggregate.requestsPerSec.center).replace('.', '\\.')
      expect(row.slice(framework.length).trim()).toMatch(new RegExp(`^${figure}` +
        ` ${aggregate.rank?.best}(–${aggregate.rank?.worst})?[!?†‡]*\\s`))
    }
    // Each abbreviation and mark the table uses is explained once, and only those it uses.
    expect(text.split('k thousand').length - 1).toBe(1)
    expect(text).toContain('! disturbed')
    expect(text).toContain('? a result disagrees with itself')
    expect(text).not.toContain('† generator-bound')
    expect(text).not.toContain('not shown')
    // Its rounds spread too much to separate 15 %: it says so, with the rounds that would.
    expect(text.replace(/\n\s+/g, ' '))
      .toMatch(/noise: rounds spread ±[\d.]+ % \(\w+\), so 2 rounds tell apart only ≥ \d+ %; 15 % needs --repeats \d+/)
  })

  it('shows more columns on a wider terminal, and names those a narrower one leaves out', () => {
    const narrow = formatOverview(overview, { width: 50 })
    const wide = formatOverview(overview, { width: 120 })
    for (const line of narrow.split('\n')) expect(line.length, line).toBeLessThanOrEqual(50)
    expect(headerColumns(narrow).length).toBeLessThan(headerColumns(wide).length)
    expect(headerColumns(wide)).toEqual(overview.columns)
    const left = overview.columns.slice(headerColumns(narrow).length)
    expect(narrow.replace(/\n\s+/g, ' ')).toContain(`not shown (50 columns): ${left.join(', ')}`)
  })

  it('colours each column by its own scale only when asked: green its best figure', () => {
    expect(formatOverview(overview, { width: 80 })).not.toContain('\u001b[')
    const coloured = formatOverview(overview, { width: 80, colour: true })
    const best = coloured.split('\n')[1]
    expect(best.startsWith(overview.rows[0].framework)).toBe(true)
    expect(best).toContain('\u001b[32m')
    expect(coloured).toContain('colour: each column\'s scale')
  })

  it('groups the warnings by cause, a line each with its count, the results only when verbose', () => {
    const groups = warningGroups(run.records)
    const disturbed = run.records.filter((record) => record.interference?.disturbed).length
    const inconsistent = run.records.filter((record) => record.consistency?.passed === false).length
    expect(groups.find((group) => group.cause === 'disturbed')?.count).toBe(disturbed)
    const failing = groups.filter((group) => group.line.includes('consistency check'))
    expect(failing.reduce((sum, group) => sum + group.count, 0)).toBe(inconsistent)
    const short = warningLines(groups, { width: 80, verbose: false })
    for (const line of short) expect(line.length, line).toBeLessThanOrEqual(80)
    expect(short.join(' ').replace(/\s+/g, ' '))
      .toContain(`disturbed: ${disturbed} results measured while other processes or the hypervisor took more than 10 %`)
    expect(short.length).toBeLessThanOrEqual(1 + 2 * groups.length)
    const verbose = warningLines(groups, { width: 80, verbose: true })
    expect(verbose.join('\n')).toContain(`${run.records.find((record) => record.interference?.disturbed)?.sut.label} × `)
    expect(verbose.length).toBeGreaterThan(disturbed)
  })
})

it('ends `dyno run` with the overview; --verbose adds the table of every round before it', async () => {
  const out = mkdtempSync(join(tmpdir(), 'dyno-overview-'))
  const result = await runCli(shortRun({ frameworks: 'node-http', scenarios: 'plaintext,json', out, verbose: true, quietCheck: 'off' }))
  expect(result.code, result.stderr).toBe(0)
  runs.add(readdirSync(out)[0])
  const lines = result.stdout.split('\n')
  const round = lines.findIndex((line) => /node-http\s+│\s+20\.\d+\.\d+\s+│\s+plaintext\s+│/.test(line))
  const header = lines.findIndex((line) => /^framework\s+plaintext\s+json$/.test(line))
  expect(round).toBeGreaterThan(-1)
  expect(header).toBeGreaterThan(round)
  expect(lines[header + 1]).toMatch(/^node-http\s+\S+\s+\S+$/)
  // Not a terminal: 80 columns, every line of the overview within them.
  const end = lines.findIndex((line) => line.startsWith('time: '))
  for (const line of lines.slice(header, end)) expect(line.length, line).toBeLessThanOrEqual(80)
  // Not a terminal either on stderr: a plain line per result, as CI logs keep them.
  expect(result.stderr).toMatch(/ok {6}node-http × plaintext/)
}, 60_000)

afterAll(() => runs.expectNoneLeft(expect))

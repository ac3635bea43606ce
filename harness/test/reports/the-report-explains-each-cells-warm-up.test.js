// @ts-check
// The reports' "Warm-up, classified" section, from real runs with runtime events on (test/fixtures/warmup-run): per SUT its
// classification, its steady state and what its runtime did either side of it, every figure read from the result file, '-' and the
// reason where the runtime reports nothing (never 0); the same rows in report.md; and in report.html a chart per SUT, drawn in
// chromium from file:// without an error, with only the throughput and latency for a SUT whose runtime reports no events.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { htmlReport } from '../../src/reports/report/html-report.js'
import { markdownReport, markdownSideBySide } from '../../src/reports/report/markdown-report.js'
import { runLabels } from '../../src/records/run-labels.js'
import { WARMUP_COLUMNS, warmupCells, warmupClassification } from '../../src/measures/wall-clock/report/warmup-classification-model.js'
import { readRun } from '../../src/records/read-run.js'
import { launchChromium, pageProblems } from '../support/browser.js'
import { missing, skipNote } from '../support/needs.js'

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'warmup-run')
const SCREENSHOT_DIR = join(import.meta.dirname, '..', '..', 'test-output')
/** express (V8's events), go-gin (the Go collector's trace only), python-flask (none): no warm-up phase. */
const THREE_RUNTIMES = join(FIXTURES, 'node-go-python-7s')
/** fastify with a 2 s warm-up phase before its 5 s. */
const WITH_WARMUP = join(FIXTURES, 'fastify-2s-warm-up')

/** @typedef {import('../../src/records/result-record.js').ResultRecord} ResultRecord */
/** @typedef {import('../../src/measures/wall-clock/report/warmup-classification-model.js').WarmupSection} WarmupSection */
/** @typedef {import('../../src/measures/wall-clock/report/warmup-classification-model.js').WarmupRow} WarmupRow */

/** @param {import('../../src/records/read-run.js').RunData} run @param {string} sut */
const recordOf = (run, sut) => /** @type {ResultRecord} */ (run.records.find((record) => record.sut.label === sut))
/** @param {ResultRecord} record */
const verdictOf = (record) => /** @type {import('../../src/judging/cell-classification.js').CellClassification} */ (record.classification)
/** @param {number} count @param {{ durationMs: number }} span */
const perSec = (count, span) => (count / (span.durationMs / 1000)).toFixed(1)

describe('the warm-up model', () => {
  const run = readRun(THREE_RUNTIMES)
  const section = /** @type {WarmupSection} */ (warmupClassification([run]).get('json'))
  const rowOf = (/** @type {string} */ sut) => /** @type {WarmupRow} */ (
    section.rows.find((row) => row.sut === sut))

  it('gives a row per SUT, fastest first, at the level measured', () => {
    expect(section.connections).toBe(100)
    const fastestFirst = [...run.aggregates]
      .sort((a, b) => b.requestsPerSec.center - a.requestsPerSec.center)
      .map((aggregate) => aggregate.sut)
    expect(section.rows.map((row) => row.sut)).toEqual(fastestFirst)
  })

  it('says what V8 did before and after the steady start, from the record\'s own spans', () => {
    const verdict = verdictOf(recordOf(run, 'express'))
    const around = /** @type {NonNullable<typeof verdict.aroundSteadyStart>} */ (verdict.aroundSteadyStart)
    const steadySec = Math.round(/** @type {number} */ (verdict.throughput?.steadyStartMs) / 10) / 100
    const optimized = /** @type {number} */ (around.before.optimized) + /** @type {number} */ (around.after.optimized)
    const row = rowOf('express')
    expect(row).toMatchObject({
      classification: verdict.classification,
      latencyClassification: verdict.latency?.classification,
      steadyStartSec: steadySec,
      steadyRequestsPerSec: verdict.throughput?.steadyLevel,
      speedup: verdict.speedup,
      optimizedBeforePct: around.optimizedBeforePct,
      deoptimized: { before: around.before.deoptimized, after: around.after.deoptimized }
    })
    expect(row.classification).toBe('warm-up')
    expect(row.summary).toContain(`${around.optimizedBeforePct} % of ${optimized} optimisations before the steady state at ${steadySec} s`)
    expect(row.summary).toContain(`${perSec(/** @type {number} */ (around.before.collections), around.before)} collections/s before, ` +
      `${perSec(/** @type {number} */ (around.after.collections), around.after)} after`)
    // No deoptimisation either side: said once, as none, not as a share of zero.
    expect([around.before.deoptimized, around.after.deoptimized]).toEqual([0, 0])
    expect(row.summary).toContain('no deoptimisation')
    expect(row.runtimeEvents).toMatch(/^v8: /)
    expect(row.gcPausePct.after).toBeCloseTo(100 * /** @type {number} */ (around.after.gcPauseMs) / around.after.durationMs, 1)
    // This run was recorded before dyno read the threads' cpu: not known, '-', never 0.
    expect(row.otherThreadsCpuPct).toEqual({ before: null, after: null })
    const threaded = structuredClone(run)
    const spans = /** @type {NonNullable<typeof verdict.aroundSteadyStart>} */ (verdictOf(recordOf(threaded, 'express')).aroundSteadyStart)
    spans.before.otherThreadsCpuMs = 0.3 * spans.before.durationMs
    spans.after.otherThreadsCpuMs = 0.014 * spans.after.durationMs
    const threadedRow = /** @type {WarmupSection} */ (warmupClassification([threaded]).get('json'))
      .rows.find((candidate) => candidate.sut === 'express')
    expect(warmupCells(/** @type {any} */ (threadedRow), false)).toContain('30.0 % / 1.4 %')
  })

  it('leaves out what Go does not report: no optimisations or deoptimisations, but its collections', () => {
    const around = /** @type {NonNullable<import('../../src/judging/cell-classification.js').CellClassification['aroundSteadyStart']>} */ (
      verdictOf(recordOf(run, 'go-gin')).aroundSteadyStart)
    const row = rowOf('go-gin')
    expect(row).toMatchObject({ optimizedBeforePct: null, deoptimized: { before: null, after: null } })
    const cells = Object.fromEntries(
      WARMUP_COLUMNS.filter((column) => column !== 'run').map((column, at) => [column, warmupCells(row, false)[at]])
    )
    expect(cells['optimised before steady']).toBe('-')
    expect(cells['deopts before / after']).toBe('-')
    expect(cells['collections/s before / after'])
      .toBe(`${perSec(/** @type {number} */ (around.before.collections), around.before)} / ` +
        `${perSec(/** @type {number} */ (around.after.collections), around.after)}`)
    expect(row.summary).not.toMatch(/optimisation/)
    expect(cells['runtime events']).toMatch(/^go-gctrace: .*it reports no compilations or deoptimisations$/)
  })

  it('prints - for every event of a runtime that reports none, with its reason, and says when a series has no steady state', () => {
    const record = recordOf(run, 'python-flask')
    const reason = /** @type {string} */ (record.summary?.runtimeEvents?.reason)
    expect(reason).toMatch(/CPython/)
    const row = rowOf('python-flask')
    const cells = warmupCells(row, false)
    const at = (/** @type {string} */ column) => cells[WARMUP_COLUMNS.filter((name) => name !== 'run').indexOf(column)]
    // Its first 1.5 s were slower (the autocannon of this run warming up too): warm-up, with nothing of its runtime known.
    expect(row.classification).toBe('warm-up')
    expect(at('steady from')).toBe('1.5 s')
    for (const column of ['optimised before steady', 'deopts before / after', 'collections/s before / after', 'GC pause before / after']) {
      expect(at(column), column).toBe('-')
    }
    expect(at('runtime events')).toBe(`not known: ${reason}`)
    expect(row.summary).not.toMatch(/optimisation|collection/)
    // The same series, had it still changed in its last quarter.
    const unsettled = structuredClone(run)
    const changes = verdictOf(record).throughput?.changePointsMs ?? []
    const verdict = verdictOf(recordOf(unsettled, 'python-flask'))
    Object.assign(verdict, { classification: 'no steady state', aroundSteadyStart: null, speedup: null })
    const throughput = /** @type {NonNullable<typeof verdict.throughput>} */ (verdict.throughput)
    Object.assign(throughput, { classification: 'no steady state', steadyStartMs: null, steadyLevel: null })
    const section = /** @type {WarmupSection} */ (warmupClassification([unsettled]).get('json'))
    const unsettledRow = section.rows.find((candidate) => candidate.sut === 'python-flask')
    expect(unsettledRow?.summary)
      .toBe(`no steady state: the throughput changed ${changes.length === 1 ? 'once' : `${changes.length} times`}, ` +
        `the last at ${Math.round(changes[changes.length - 1] / 10) / 100} s`)
  })

  it('charts each SUT\'s series with its change points, and its runtime\'s events per window where it reports them', () => {
    expect(section.charts.map((chart) => chart.name)).toEqual(section.rows.map((row) => row.sut))
    const express = recordOf(run, 'express')
    const chart = section.charts[section.rows.findIndex((row) => row.sut === 'express')]
    const windows = express.summary?.timeseries ?? []
    expect(chart.changePointsSec).toEqual(verdictOf(express).throughput?.changePointsMs.map((ms) => Math.round(ms / 10) / 100))
    expect(chart.steadyStartSec).toBe(rowOf('express').steadyStartSec)
    expect(chart.warmupEndSec).toBe(null)
    // Every window's req/s but the last, which the load's end cut short (as the classification leaves it out).
    expect(windows[windows.length - 1].durationMs).toBeLessThan(express.load.windowMs / 2)
    expect(chart.throughput.map(([, rate]) => rate)).toEqual(windows.slice(0, -1).map((window) => window.requestsPerSec))
    const totals = /** @type {NonNullable<NonNullable<ResultRecord['summary']>['runtimeEvents']>} */ (express.summary?.runtimeEvents).totals
    const sum = (/** @type {[number, number][] | null | undefined} */ points) =>
      (points ?? []).reduce((total, [, count]) => total + count, 0)
    expect(sum(chart.events?.optimized)).toBe(Object.values(totals?.optimized ?? {}).reduce((total, count) => total + count, 0))
    expect(sum(chart.events?.collections)).toBe(Object.values(totals?.gc ?? {}).reduce((total, tally) => total + tally.count, 0))
    expect(chart.events?.optimized).toHaveLength(windows.length)

    const go = section.charts[section.rows.findIndex((row) => row.sut === 'go-gin')]
    expect(go.events).toMatchObject({ optimized: null, deoptimized: null })
    expect(go.events?.collections).toHaveLength(recordOf(run, 'go-gin').summary?.timeseries?.length ?? -1)
    const python = section.charts[section.rows.findIndex((row) => row.sut === 'python-flask')]
    expect(python.events).toBe(null)
    expect(python.subtitle).toContain(/** @type {string} */ (recordOf(run, 'python-flask').summary?.runtimeEvents?.reason))
  })

  it('puts the measured windows after the warm-up\'s, on one timeline since the first request', () => {
    const warm = readRun(WITH_WARMUP)
    const record = recordOf(warm, 'fastify')
    const [chart] = /** @type {WarmupSection} */ (warmupClassification([warm]).get('json')).charts
    const warmupWindows = record.warmup?.timeseries ?? []
    const measured = record.summary?.timeseries ?? []
    const warmupMs = warmupWindows.reduce((total, window) => total + window.durationMs, 0)
    expect(chart.warmupEndSec).toBeCloseTo(warmupMs / 1000, 3)
    expect(chart.throughput).toHaveLength(warmupWindows.length + measured.length)
    expect(chart.throughput[warmupWindows.length][0]).toBeCloseTo((warmupMs + measured[0].startMs + measured[0].durationMs / 2) / 1000, 3)
    expect(chart.throughput[warmupWindows.length][1]).toBe(measured[0].requestsPerSec)
    const tiers = (/** @type {ResultRecord['warmup']} */ phase) =>
      Object.values(phase?.runtimeEvents?.totals?.optimized ?? {}).reduce((total, count) => total + count, 0)
    expect((chart.events?.optimized ?? []).reduce((total, [, count]) => total + count, 0)).toBe(
      tiers(record.warmup) + tiers(record.summary)
    )
    expect(chart.steadyStartSec).toBe(Math.round(/** @type {number} */ (verdictOf(record).throughput?.steadyStartMs) / 10) / 100)
  })

  it('has no section where no series was long enough to classify, nor for results written before the classification', () => {
    const short = structuredClone(run)
    const reason = 'a series of 6 windows with responses; the classification needs 24 (6 s at 250 ms windows: `--profile sustained`)'
    for (const record of short.records) {
      record.classification = {
        classification: null, reason, windows: 6, throughput: null, latency: null, speedup: null, changePoints: [], aroundSteadyStart: null
      }
    }
    expect(warmupClassification([short]).get('json')).toBe(null)
    expect(markdownReport(short)).not.toContain('Warm-up, classified')
    // One series classified: the others' rows say why they were not.
    const mixed = structuredClone(run)
    for (const record of mixed.records.slice(1)) {
      const unclassified = { classification: null, reason, throughput: null, latency: null, changePoints: [], aroundSteadyStart: null }
      record.classification = { ...unclassified, windows: 6, speedup: null }
    }
    const section = /** @type {WarmupSection} */ (warmupClassification([mixed]).get('json'))
    expect(section.rows.filter((row) => row.classification === null).map((row) => row.summary))
      .toEqual(mixed.records.slice(1).map(() => `not classified: ${reason}`))
    expect(section.charts).toHaveLength(1)
    const older = structuredClone(run)
    for (const record of older.records) delete record.classification
    expect(warmupClassification([older]).get('json')).toBe(null)
    expect(markdownReport(older)).not.toContain('Warm-up, classified')
  })
})

describe('report.md', () => {
  it('holds the warm-up table of each scenario after its figures', () => {
    const run = readRun(THREE_RUNTIMES)
    const markdown = markdownReport(run)
    const lines = markdown.split('\n')
    const heading = lines.indexOf('### Warm-up, classified: json')
    expect(heading).toBeGreaterThan(lines.findIndex((line) => line.startsWith('| 1 |')))
    expect(lines.slice(heading).find((line) => line.startsWith('| SUT |'))).toBe(
      `| ${WARMUP_COLUMNS.filter((column) => column !== 'run').join(' | ')} |`
    )
    const [model] = /** @type {WarmupSection} */ ([...warmupClassification([run]).values()][0]).rows
    expect(lines).toContain(`| ${warmupCells(model, false).join(' | ')} |`)
    const express = lines.find((line) => line.startsWith('| express | warm-up |'))
    expect(express).toMatch(/^\| express \| warm-up \| warm-up \| 0\.75 s \| 7,796 \| 2\.90× \| 73\.7 % \| 0 \/ 0 \| \d+\.\d \/ \d+\.\d \|/)
    expect(lines.find((line) => line.startsWith('| python-flask | warm-up |'))).toContain('| - | - | - | - |')
  })

  it('names each row\'s run when runs are set side by side', () => {
    const runs = [readRun(THREE_RUNTIMES), readRun(WITH_WARMUP)]
    const labels = runLabels(runs)
    const markdown = markdownSideBySide(runs, labels)
    expect(markdown).toContain(`| ${WARMUP_COLUMNS.join(' | ')} |`)
    expect(markdown).toContain(`| fastify | ${labels[1]} | warm-up |`)
    expect(markdown).toContain(`| express | ${labels[0]} | warm-up |`)
  })
})

const absent = missing('chromium')

describe.skipIf(absent)(`report.html in chromium${skipNote(absent)}`, () => {
  /** @type {Awaited<ReturnType<typeof launchChromium>>} */
  let browser
  const work = mkdtempSync(join(tmpdir(), 'dyno-warmup-report-'))

  beforeAll(async () => { browser = await launchChromium() })
  afterAll(async () => { await browser?.close() })

  /** @param {string} html @param {string} screenshot */
  async function open (html, screenshot) {
    const path = join(work, `${screenshot}.html`)
    writeFileSync(path, html)
    const page = await browser.context.newPage()
    const problems = pageProblems(page)
    await page.goto(pathToFileURL(path).href)
    await page.waitForFunction(() => /** @type {any} */ (globalThis).dynoRenderedCharts !== undefined, null, { timeout: 20_000 })
    const rendered = await page.evaluate(() => /** @type {{ id: string, chart: string, series: number }[]} */ (
      /** @type {any} */ (globalThis).dynoRenderedCharts).filter((entry) => entry.chart === 'warmup'))
    const charts = await page.evaluate(() => [...globalThis.document.querySelectorAll('[data-chart="warmup"]')].map((element) => {
      const option = /** @type {any} */ (globalThis).echarts.getInstanceByDom(element).getOption()
      const canvas = element.querySelector('canvas')
      return {
        id: element.id,
        titles: option.title.map((/** @type {{ text: string }} */ title) => title.text).join(' '),
        grids: option.grid.length,
        series: option.series.map((/** @type {{ name: string, type: string }} */ series) => `${series.type} ${series.name}`),
        steadyMark:
          option.series[0].markLine?.data?.find((/** @type {any} */ mark) => mark.lineStyle?.type === 'solid')?.label?.formatter ?? null,
        dashedMarks: option.series[0].markLine?.data?.filter((/** @type {any} */ mark) => mark.lineStyle?.type === 'dashed').length ?? 0,
        drawn: Boolean(canvas && canvas.width > 0 && canvas.height > 0)
      }
    }))
    const table = await page.$$eval('section[id^="warmup-"] table tbody tr', (rows) => rows.map((row) => row.textContent ?? ''))
    mkdirSync(SCREENSHOT_DIR, { recursive: true })
    await page.locator('section[id^="warmup-"]').first().screenshot({ path: join(SCREENSHOT_DIR, `${screenshot}.png`) })
    await page.close()
    return { rendered, charts, table, problems }
  }

  it('draws a chart per SUT: throughput and p50 with the change points above, the runtime\'s events below where it has them', async () => {
    const run = readRun(THREE_RUNTIMES)
    const { rendered, charts, table, problems } = await open(htmlReport([run]), 'report-warmup')
    expect(problems).toEqual([])
    const section = /** @type {WarmupSection} */ (warmupClassification([run]).get('json'))
    expect(rendered.map((entry) => entry.id)).toEqual(section.charts.map((_, index) => `chart-warmup-json-${index}`))
    const bySut = Object.fromEntries(section.charts.map((chart, index) => [chart.name, charts[index]]))
    for (const chart of charts) expect(chart.drawn, chart.id).toBe(true)

    expect(bySut.express).toMatchObject({
      grids: 2,
      series: ['line req/s', 'line p50 ms', 'bar optimisations', 'bar deoptimisations', 'bar collections', 'line GC pause ms'],
      steadyMark: `steady from ${section.rows.find((row) => row.sut === 'express')?.steadyStartSec} s`
    })
    expect(bySut['go-gin']).toMatchObject({ grids: 2, series: ['line req/s', 'line p50 ms', 'bar collections', 'line GC pause ms'] })
    const python = recordOf(run, 'python-flask')
    expect(bySut['python-flask']).toMatchObject({ grids: 1, series: ['line req/s', 'line p50 ms'], steadyMark: 'steady from 1.5 s' })
    const pythonThroughput = verdictOf(python).throughput
    // Every change point dashed but the one where the steady state starts, drawn solid.
    expect(bySut['python-flask'].dashedMarks).toBe(
      (pythonThroughput?.changePointsMs ?? []).filter((ms) => ms !== pythonThroughput?.steadyStartMs).length
    )
    expect(bySut['python-flask'].titles.replace(/\s+/g, ' ')).toContain(python.summary?.runtimeEvents?.reason)
    expect(table.find((row) => row.startsWith('python-flask'))).toContain(`not known: ${python.summary?.runtimeEvents?.reason}`)
  })

  it('sets runs side by side, each chart named with its run, the warm-up phase on its timeline', async () => {
    const runs = [readRun(THREE_RUNTIMES), readRun(WITH_WARMUP)]
    const labels = runLabels(runs)
    const { rendered, charts, problems } = await open(htmlReport(runs), 'report-warmup-side-by-side')
    expect(problems).toEqual([])
    expect(rendered).toHaveLength(4)
    expect(charts.map((chart) => chart.titles.split(':')[0]).sort())
      .toEqual([`express · ${labels[0]}`, `fastify · ${labels[1]}`, `go-gin · ${labels[0]}`, `python-flask · ${labels[0]}`].sort())
  })
})

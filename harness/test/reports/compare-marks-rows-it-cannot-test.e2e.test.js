// @ts-check
import { cpSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, expect, it } from 'vitest'
import { FOUR_REPEATS, runWithFigures } from '../support/compare-inputs.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runCli } from '../support/run-cli.js'

// Copies of a committed run of 4 repeats, with known figures.
const baselineFigures = { requestsPerSec: [10_000, 10_100, 9_900, 10_050], p99Ms: [2.0, 2.1, 1.9, 2.05] }
const slower = { requestsPerSec: baselineFigures.requestsPerSec.map((value) => value * 0.9), p99Ms: baselineFigures.p99Ms }
const runDir = FOUR_REPEATS
let baseline = ''

beforeAll(() => {
  baseline = runWithFigures(runDir, baselineFigures)
})

/** @param {string[]} args */
async function compareJson (...args) {
  const result = await runCli(['compare', ...args, '--format', 'json'])
  const document = JSON.parse(result.stdout)
  expect(schemaErrors('compare', document)).toEqual([])
  return { ...result, document }
}

it('gives the point change only, and says why, when the repeats are too few for a test', async () => {
  const candidate = runWithFigures(runDir, slower)
  const { code, document } = await compareJson(
    join(baseline, 'node-http--json--r1.json'), join(candidate, 'node-http--json--r1.json'), '--fail-on', 'regression')
  expect(code).toBe(0)
  expect(document.summary).toEqual({
    improved: 0, regressed: 0, unchanged: 0, tooFewRepeats: 1, notComparable: 0, syscallsRegressed: 0, allocationRegressed: 0, disturbed: 0
  })
  expect(document.rows[0]).toMatchObject({
    status: 'too-few-repeats',
    verdict: null,
    reason: expect.stringMatching(
      new RegExp(String.raw`^too few repeats for a test: 1 baseline and 1 candidate run; ` +
        String.raw`the Mann–Whitney U test cannot reach p < 0\.05 .* the point change only$`)
    ),
    requestsPerSec: { changePercent: -10, ci95Percent: null, test: null, significant: null, verdict: null }
  })
  const table = await runCli(['compare', join(baseline, 'node-http--json--r1.json'), join(candidate, 'node-http--json--r1.json')])
  expect(table.stdout).toMatch(/│ +-10\.0% │ - │.*│ point change only │/)
  expect(table.stdout).toContain('node-http × json (10 connections): too few repeats for a test')
})

it('reports a cell with a run that is not ok as not comparable, naming the run and its file', async () => {
  const candidate = runWithFigures(runDir, {
    ...slower,
    edit: (record, repeat) => {
      if (repeat !== 2) return
      record.status = 'failed'
      record.reason = 'DYNO_ERR_SUT_EXITED: the SUT exited with code 3\nfixture crash: boom'
      record.errorCode = 'DYNO_ERR_SUT_EXITED'
    }
  })
  const failedFile = join(candidate, 'node-http--json--r2.json')
  const { code, document } = await compareJson(baseline, candidate, '--fail-on', 'regression')
  expect(code).toBe(0)
  expect(document.rows[0]).toMatchObject({
    status: 'not-comparable',
    verdict: null,
    reason: `candidate run 2 failed: DYNO_ERR_SUT_EXITED: the SUT exited with code 3 (${failedFile})`,
    requestsPerSec: { baseline: { median: 10_025 }, candidate: null, changePercent: null }
  })
  const failing = await runCli(['compare', baseline, candidate, '--fail-on', 'regression,not-comparable'])
  expect(failing.code).toBe(1)
  expect(failing.stdout).toMatch(/│ not comparable │/)
  expect(failing.stderr).toContain('node-http × json (10 connections) is not comparable')
})

it('keeps cells of one side only as rows, and refuses to compare different load shapes', async () => {
  // A directory of run directories is one side: here the node-http run and a run of another SUT.
  const candidateRuns = mkdtempSync(join(tmpdir(), 'dyno-compare-runs-'))
  cpSync(runWithFigures(runDir, slower), join(candidateRuns, 'a'), { recursive: true })
  cpSync(runWithFigures(runDir, {
    ...slower,
    edit: (record) => { record.sut.name = 'koa'; record.sut.label = 'koa' }
  }), join(candidateRuns, 'b'), { recursive: true })
  const { document } = await compareJson(baseline, candidateRuns)
  // By SUT: a cell one side lacks stands in its place among the others.
  expect(document.rows.map((/** @type {any} */ row) => [row.sut, row.status, row.reason])).toEqual([
    ['koa', 'not-comparable', 'only in the candidate'],
    ['node-http', 'compared', null]
  ])
  expect(document.rows[0].requestsPerSec.candidate.median).toBe(9_022.5)

  const pipelined = runWithFigures(runDir, { ...slower, edit: (record) => { record.load.pipelining = 4 } })
  const other = await compareJson(baseline, pipelined)
  expect(other.document.rows[0]).toMatchObject({ status: 'not-comparable', reason: 'the load differs: pipelining 1 vs 4' })

  const longer = runWithFigures(runDir, { ...slower, edit: (record) => { record.load.durationSec = 10 } })
  const noted = await compareJson(baseline, longer)
  expect(noted.document.rows[0]).toMatchObject({
    status: 'compared',
    verdict: 'regressed',
    notes: ['durationSec differs: 0.5 (baseline) vs 10 (candidate)']
  })
})

it('reads a run through its run.json too', async () => {
  const index = join(runWithFigures(runDir, slower), 'run.json')
  const { document } = await compareJson(join(baseline, 'run.json'), index)
  expect(document.rows[0].verdict).toBe('regressed')
  expect(JSON.parse(readFileSync(index, 'utf8')).results).toHaveLength(4)
})

// @ts-check
// `--measure instructions` counts what a SUT executes per request under callgrind, start-up and warm-up
// uncounted, window by window, every response checked: a SUT doing 60% more work per request is counted as
// doing more, and `dyno compare` calls two counts of the same code unchanged and the slower one regressed; `dyno explain` names the
// function that does the extra work, in the SUT's own code, and its layers add up to the change.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { compareRuns } from '../../src/reports/compare/compare-runs.js'
import { COMPARE_DEFAULTS } from '../../src/reports/compare/compare-defaults.js'
import { COMPARE_FORMATTERS } from '../../src/reports/compare/formats/index.js'
import { markdownReport } from '../../src/reports/report/markdown-report.js'
import { writeReports } from '../../src/reports/report/write-reports.js'
import { readRun } from '../../src/records/read-run.js'
import { fixtureSut } from '../support/fixture-suts.js'
import { trackRuns } from '../support/leftover-processes.js'
import { missing, skipNote } from '../support/needs.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runInTempDir } from '../support/run-fixture.js'
import { explainRuns } from '../../src/reports/explain/explain-runs.js'
import { explanationText } from '../../src/reports/explain/explain-text.js'

const runs = trackRuns()
const absent = missing('valgrind')
const COUNT = { measure: /** @type {const} */ ('instructions'), countWarmupRequests: 200, countWindowRequests: 40, countWindows: 6 }

/** @param {string | null} extraWorkPercent the cpu-work fixture's injected extra work, inherited by the SUT */
async function countCpuWork (extraWorkPercent) {
  if (extraWorkPercent === null) delete process.env.DYNO_FIXTURE_EXTRA_WORK_PERCENT
  else process.env.DYNO_FIXTURE_EXTRA_WORK_PERCENT = extraWorkPercent
  const { written: [record], runDir } = await runInTempDir({ runs, suts: [fixtureSut('cpu-work')], scenarios: ['json'], load: COUNT })
  return { record, runDir }
}

describe.skipIf(absent)(`instruction counts${skipNote(absent)}`, () => {
  afterEach(() => { delete process.env.DYNO_FIXTURE_EXTRA_WORK_PERCENT })

  it('counts each window of requests, checks every response, sees 60% more work, and compares the counts window by window', async () => {
    const base = await countCpuWork(null)
    expect(schemaErrors('result', base.record)).toEqual([])
    expect(base.record).toMatchObject({ status: 'ok', load: COUNT, summary: null })
    const count = base.record.instructions
    expect(count).toMatchObject({ tool: 'callgrind', method: 'toggle', warmupRequests: 200, windowRequests: 40, processes: 1 })
    expect(count.windows).toHaveLength(6)
    expect(count.checks).toEqual({ responses: 200 + 6 * 40, mismatches: 0, unexpectedStatus: 0, errors: 0 })
    expect(count.settings.nodeFlags).toContain('--single-threaded')
    // About 0.5 ms of a xorshift loop per request: far above node:http's own cost, so over a million instructions.
    expect(count.instructionsPerRequest).toBeGreaterThan(1_000_000)
    const total = count.windows.reduce((sum, window) => sum + window.instructions, 0)
    expect(count.instructionsPerRequest).toBe(Math.round(total / (6 * 40)))

    // The function list is kept gzipped beside the result, named after it, and put back where the run is read.
    const stored = count.functions
    if (!stored || stored.layers === null) throw new Error(`no functions: ${stored?.reason}`)
    expect(stored.functions).toBeUndefined()
    const resultFile = readdirSync(base.runDir).find((name) => name.endsWith('--json.json'))
    expect(stored.listFile).toBe(resultFile?.replace(/\.json$/, '.functions.json.gz'))
    expect(statSync(join(base.runDir, String(stored.listFile))).size).toBeLessThan(64 * 1024)
    // Every function of a request with its layer: the charged instructions of the layers add up to the whole count.
    const functions = readRun(base.runDir).records[0].instructions?.functions
    if (!functions || functions.layers === null) throw new Error(`no functions: ${functions?.reason}`)
    expect(functions.generatedCodeNamed).toBe(true)
    const layered = Object.values(functions.layers).reduce((sum, value) => sum + value, 0)
    expect(Math.abs(layered - count.instructionsPerRequest) / count.instructionsPerRequest).toBeLessThan(0.001)
    expect(functions.functions[0]).toMatchObject({ name: 'work', layer: 'app', package: null })
    expect(functions.functions[0].file).toMatch(/cpu-work\/start\.js$/)
    expect(functions.layers.node).toBeGreaterThan(0)
    expect(count.windows.every((window) => window.layers && window.layers.app > 0)).toBe(true)

    expect(markdownReport(readRun(base.runDir)))
      .toMatch(/\| framework \| version \| instructions\/req [^\n]*\n[^\n]*\n\| fixture-cpu-work \| [^|]+ \| [\d,]+ \| /)

    const again = await countCpuWork(null)
    const slower = await countCpuWork('60')
    expect({ status: slower.record.status, reason: slower.record.reason }).toEqual({ status: 'ok', reason: null })
    expect(slower.record.instructions.instructionsPerRequest / count.instructionsPerRequest).toBeGreaterThan(1.3)

    const aa = compareRuns([base.runDir], [again.runDir], { thresholdPercent: null, paired: false })
    expect(aa.settings).toMatchObject({
      measure: 'instructions',
      thresholdPercent: null,
      thresholdFloorPercent: COMPARE_DEFAULTS.instructionThresholdFloorPercent,
      test: 'wilcoxon-signed-rank'
    })
    expect(aa.rows[0]).toMatchObject({
      status: 'compared', verdict: 'unchanged', requestsPerSec: null, verdictMetric: 'programInstructionsPerRequest'
    })
    // All instructions are shown beside the program's, never judged.
    expect(aa.rows[0].instructionsPerRequest).toMatchObject({ verdict: null, threshold: null })
    const aaThreshold = aa.rows[0].programInstructionsPerRequest?.threshold
    expect(aaThreshold?.percent).toBeGreaterThanOrEqual(COMPARE_DEFAULTS.instructionThresholdFloorPercent)
    expect(aaThreshold?.percent).toBe(Math.max(COMPARE_DEFAULTS.instructionThresholdFloorPercent, aaThreshold?.spreadPercent ?? 0))
    expect(Math.abs(aa.rows[0].programInstructionsPerRequest?.changePercent ?? 100)).toBeLessThan(aaThreshold?.percent ?? 0)

    // The extra work is the fixture's `work`: first by its own instructions and by its charged ones, all of the change in its layer.
    const { explanations: [why], unpaired } = explainRuns(base.runDir, slower.runDir, { top: 3 })
    expect(unpaired).toEqual([])
    expect(why.functions[0].fn).toMatchObject({ name: 'work', layer: 'app' })
    expect(why.charged[0].fn.name).toBe('work')
    expect(why.functions[0].selfChange / why.change).toBeGreaterThan(0.9)
    expect(why.layers[0]).toMatchObject({ layer: 'app', withinNoise: false })
    expect(Math.abs(why.layersChange - why.change)).toBeLessThan(why.noise.perRequest)
    expect(explanationText(why, { markdown: true })).toMatch(new RegExp('^### fixture-cpu-work × json → fixture-cpu-work × json: ' +
      '[\\s\\S]*\\| \\+[\\d,]+ \\| [\\d,]+ → [\\d,]+ \\| [^|]+ \\| app \\| work \\| [^|]*cpu-work/start\\.js:\\d+ \\|', 'm'))
    // The side-by-side report of the two runs says the same, in markdown and with its flame graph in HTML.
    writeReports([base.runDir, slower.runDir])
    const sideBySide = readFileSync(join(slower.runDir, 'side-by-side.md'), 'utf8')
    expect(sideBySide).toMatch(/## Why the counts differ, by layer and function\n\n### fixture-cpu-work × json → fixture-cpu-work × json/)
    expect(sideBySide).toMatch(/\| app \| work \|/)
    expect(readFileSync(join(slower.runDir, 'side-by-side.html'), 'utf8')).toMatch(/<svg[^>]*>[\s\S]*<title>work\n/)
    // Two counts of the same code: no function's change is beyond the noise.
    const same = explainRuns(base.runDir, again.runDir, { top: 10 }).explanations[0]
    expect(same.functions).toEqual([])
    expect(same.layers.find((layer) => layer.layer === 'app')).toMatchObject({ withinNoise: true })

    const slowdown = compareRuns([base.runDir], [slower.runDir], { thresholdPercent: null, paired: false })
    expect(slowdown.rows[0]).toMatchObject({ status: 'compared', verdict: 'regressed' })
    // A regressed row says why: the function first, its layer beyond the noise.
    expect(slowdown.rows[0].why?.functions[0]).toMatchObject({ name: 'work', layer: 'app' })
    expect(slowdown.rows[0].why?.layers[0]).toMatchObject({ layer: 'app' })
    expect(COMPARE_FORMATTERS.table(slowdown)).toMatch(/fixture-cpu-work × json: why, in instructions per request [^\n]*\+[\d,]+ work \(/)
    expect(slowdown.rows[0].programInstructionsPerRequest?.test).toMatchObject({ name: 'wilcoxon-signed-rank', pairs: 6 })
    expect(COMPARE_FORMATTERS.table(slowdown))
      .toMatch(/cand instr\/req[\s\S]*threshold[\s\S]*program[\s\S]*\d\.\d\d%[\s\S]*regressed[\s\S]*Verdicts on the program's instructions/)
    const given = compareRuns([base.runDir], [slower.runDir], { thresholdPercent: 80, paired: false })
    expect(given.rows[0]).toMatchObject({
      verdict: 'unchanged', programInstructionsPerRequest: { threshold: { percent: 80, from: 'given', spreadPercent: null } }
    })
    expect(() => COMPARE_FORMATTERS.gab(slowdown)).toThrow(/--format gab holds wall-clock figures.*allowed here: .*gab-instructions/)
    expect(JSON.parse(COMPARE_FORMATTERS['gab-instructions'](slowdown))[0]).toMatchObject({ unit: 'instructions/req' })
  }, 300_000)

  afterAll(() => runs.expectNoneLeft(expect))
})

// @ts-check
// The default profile sizes its rounds per cell from the machine's spread: measured the first time (fresh launches of node-http,
// fastify and express, each a round of a cell), kept sealed in the cache directory beside the engine calibration, reused while it holds,
// and measured again, with one line saying why, when the file was edited by hand (a-stored-calibration-is-used-only-as-dyno-wrote-it
// checks that). The same launches give the spread of the cpu cost per request; the rounds are sized on the steadier figure, which the run
// ranks on. run.json records the plan it gave and the figure ranked on; a run that sets its rounds (`--repeats`, `--duration`,
// `--warmup`) is not sized; Ctrl-C during the measuring stops before any cell and stores nothing.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { CALIBRATION_LAUNCHES, NOISE_CALIBRATION_FILE } from '../../src/measures/calibrations/noise/noise-calibration.js'
import { dynoRun } from '../support/dyno-run.js'
import { trackRuns } from '../support/leftover-processes.js'
import { missing, skipNote } from '../support/needs.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runCli } from '../support/run-cli.js'
import { writtenRun } from '../support/written-run.js'

const runs = trackRuns()
const absent = missing('native')
const cacheDir = mkdtempSync(join(tmpdir(), 'dyno-noise-cache-'))
const out = mkdtempSync(join(tmpdir(), 'dyno-noise-'))
const file = join(cacheDir, NOISE_CALIBRATION_FILE)
const MEASURING = /dyno: measuring how much a cell's figure spreads on this machine/
/**
 * A run that leaves its rounds to the default profile. What is checked is the plan, not the cells' figures: a cell measured beside the
 * next test file is not measured again (the calibration's own launches still are, as on any machine).
 */
const DEFAULT_ROUNDS = Object.freeze({ frameworks: 'node-http', scenarios: 'json', engine: 'native', disturbedAbovePct: 99, out })

/**
 * @param {import('../support/dyno-run.js').RunFields} fields
 * @returns {Promise<{ stderr: string, stdout: string, index: any, records: any[], runDir: string }>}
 */
async function run (fields = {}) {
  const result = await runCli(dynoRun({ ...DEFAULT_ROUNDS, cacheDir, ...fields }), { timeoutMs: 420_000 })
  expect(result.code, result.stderr).toBe(0)
  const runDir = /results: (.+)/.exec(result.stdout)?.[1] ?? ''
  const { index, records } = writtenRun(runDir)
  runs.add(index.runId)
  return { stderr: result.stderr, stdout: result.stdout, index, records, runDir }
}

/** Processes a calibration started (marked `DYNO_RUN_ID=noise-…`) that are still alive. */
function calibrationProcesses () {
  return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid).filter((pid) => {
    try {
      const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0]
      return state !== 'Z' && readFileSync(`/proc/${pid}/environ`, 'utf8').includes('DYNO_RUN_ID=noise-')
    } catch {
      return false
    }
  })
}

describe.skipIf(absent)(`the default rounds${skipNote(absent)}`, () => {
  afterAll(() => runs.expectNoneLeft(expect))

  it('are sized from the spread measured the first time, kept, and reused', async () => {
    const first = await run()
    expect(first.stderr).toMatch(MEASURING)
    expect(schemaErrors('run-index', first.index)).toEqual([])
    const stored = JSON.parse(readFileSync(file, 'utf8'))
    expect(stored.seal).toMatch(/^[0-9a-f]{64}$/)
    // Each launch warmed over the default plan's eight routes first, as a run's launch is.
    expect(stored.key).toMatchObject({
      node: process.version,
      load: { scenario: 'json', warmupSec: 0.15, launchWarmupSec: 0.2, roundSec: 1, engine: 'native' }
    })
    expect(stored.key.load.launchScenarios).toHaveLength(8)
    // Every SUT of the calibration, each launch a figure measured (no SUT of the three refuses to run here).
    expect(Object.keys(stored.calibration.requestsPerSec).sort()).toEqual(['express', 'fastify', 'node-http'])
    for (const rates of Object.values(stored.calibration.requestsPerSec)) {
      expect(rates).toHaveLength(CALIBRATION_LAUNCHES)
      for (const rate of rates) expect(rate).toBeGreaterThan(0)
    }
    expect(stored.calibration.df).toBe(3 * (CALIBRATION_LAUNCHES - 1))
    // The same launches' cpu µs per request, and its spread beside req/s's.
    for (const costs of Object.values(stored.calibration.cpuUsPerRequest)) {
      expect(costs).toHaveLength(CALIBRATION_LAUNCHES)
      for (const cost of costs) expect(cost).toBeGreaterThan(0)
    }
    expect(stored.calibration.costDf).toBe(3 * (CALIBRATION_LAUNCHES - 1))
    // Pinned here, each launch's cost is at one cpu speed: the speed probe's reading of its round divided out.
    expect(stored.calibration.costAtProbedSpeed).toBe(true)
    const plan = first.index.noisePlan
    expect(plan).toMatchObject({ calibrationFile: file, measuredAt: stored.calibration.measuredAt, budgetSec: 600 })
    // The rounds sized on the steadier figure, which the run ranks on and records.
    // Sized on the spread within a rotation (every SUT once), which the rank groups judge pairs on; the spread between launches beside it.
    const within = stored.calibration.withinRotation
    const sdOf = { 'req/s': Math.sqrt(within.variance), cost: Math.sqrt(within.costVariance) }
    expect(plan.withinBlocks).toBe(true)
    expect(plan.sdLogBetweenLaunches['req/s']).toBeCloseTo(Math.sqrt(stored.calibration.variance), 3)
    const steadier = sdOf.cost < sdOf['req/s'] ? 'cost' : 'req/s'
    expect(plan).toMatchObject({ sizedOn: steadier, rankBy: { figure: steadier, by: 'calibration' } })
    expect(plan.sdLog).toBeCloseTo(sdOf[steadier], 3)
    expect(plan.sdLogOf.cost).toBeCloseTo(sdOf.cost, 3)
    expect(first.index.rankBy).toEqual(plan.rankBy)
    const aggregates = JSON.parse(readFileSync(join(first.runDir, 'aggregates.json'), 'utf8')).aggregates
    expect(aggregates.map((/** @type {any} */ aggregate) => aggregate.rankedBy)).toEqual([steadier])
    // The run has the rounds the plan gave, every one measured, and says what the plan says where the budget falls short.
    expect(first.index.options.repeats).toBe(plan.repeats)
    expect(first.records).toHaveLength(plan.repeats)
    if (plan.line) {
      expect(first.stderr.replace(/\s+/g, ' ')).toContain(plan.line)
      expect(readFileSync(join(first.runDir, 'report.md'), 'utf8').replace(/\s+/g, ' ')).toContain(plan.line)
    }

    const second = await run()
    expect(second.stderr).not.toMatch(MEASURING)
    expect(second.index.noisePlan).toEqual(plan)
  }, 900_000)

  it('leaves rounds set by the options as they are, without measuring', async () => {
    const given = await run({ repeats: 3 })
    expect(given.stderr).not.toMatch(MEASURING)
    expect(given.index.noisePlan).toBeNull()
    expect(given.index.rankBy).toEqual({ figure: 'req/s', by: 'no calibration' })
    expect(given.records).toHaveLength(3)
    const shorter = await run({ durationSec: 0.5, warmupSec: 0.2, rankBy: 'cost' })
    expect(shorter.index.noisePlan).toBeNull()
    expect(shorter.index.rankBy).toEqual({ figure: 'cost', by: 'given' })
    expect(shorter.records).toHaveLength(2)
  }, 400_000)

  it('on Ctrl-C while measuring the spread stops before any cell, stores nothing, and leaves no process', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'dyno-noise-cache-'))
    let interrupted = false
    const result = await runCli(dynoRun({ ...DEFAULT_ROUNDS, cacheDir: fresh }), {
      timeoutMs: 120_000,
      onStderr: (stderr, child) => {
        if (!interrupted && MEASURING.test(stderr)) {
          interrupted = true
          setTimeout(() => child.kill('SIGINT'), 3000)
        }
      }
    })
    expect(interrupted).toBe(true)
    expect(result.code).toBe(130)
    expect(result.stderr).toContain('DYNO_ERR_INTERRUPTED')
    expect(result.stderr).toContain('nothing was measured')
    expect(existsSync(join(fresh, NOISE_CALIBRATION_FILE))).toBe(false)
    expect(calibrationProcesses()).toEqual([])
  }, 200_000)
})

// @ts-check
// `--engine auto`: a run takes one engine for every cell, chosen from this machine's calibration (autocannon where it keeps
// up with the fastest SUT here, else the native engine), measured the first time and kept in the cache directory. A
// calibration that is corrupt, from another machine, or not written by dyno with this cache directory (made up, edited by hand) is
// ignored with one line and measured again; an engine given by name is used as given, without calibrating.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { CALIBRATION_FILE } from '../../src/measures/calibrations/engine-choice/engine-choice.js'
import { keptUpAt } from '../../src/measures/calibrations/engine-choice/keeps-up.js'
import { AUTO_CANDIDATES } from '../../src/load/engines/index.js'
import { dynoRun } from '../support/dyno-run.js'
import { trackRuns } from '../support/leftover-processes.js'
import { missing, skipNote } from '../support/needs.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runCli } from '../support/run-cli.js'
import { writtenRun } from '../support/written-run.js'

const runs = trackRuns()
const absent = missing('native')
const cacheDir = mkdtempSync(join(tmpdir(), 'dyno-cache-'))
const out = mkdtempSync(join(tmpdir(), 'dyno-engine-choice-'))
const MEASURING = /dyno: measuring which engine keeps up on this machine/

/** @param {import('../support/dyno-run.js').RunFields} fields @returns {Promise<{ stderr: string, index: any, records: any[] }>} */
async function run (fields = {}) {
  const result = await runCli(dynoRun({
    frameworks: 'node-http',
    scenarios: 'json,plaintext',
    durationSec: 1,
    warmupSec: 0,
    disturbedAbovePct: 99,
    launchWarmupSec: 0,
    connections: 10,
    out,
    cacheDir,
    ...fields
  }), { timeoutMs: 120_000 })
  expect(result.code, result.stderr).toBe(0)
  const runDir = /results: (.+)/.exec(result.stdout)?.[1] ?? ''
  const { index, records } = writtenRun(runDir)
  runs.add(index.runId)
  return { stderr: result.stderr, index, records }
}

describe.skipIf(absent)(`one engine per run${skipNote(absent)}`, () => {
  it('is chosen by a calibration measured once per machine, and measures every cell', async () => {
    const first = await run()
    expect(first.stderr).toMatch(MEASURING)
    expect(schemaErrors('run-index', first.index)).toEqual([])
    const { engineChoice } = first.index
    const stored = JSON.parse(readFileSync(join(cacheDir, CALIBRATION_FILE), 'utf8'))
    expect(engineChoice).toMatchObject({ by: 'calibration', calibrationFile: join(cacheDir, CALIBRATION_FILE), levels: stored.levels })
    const level = stored.levels['10']
    // Every engine auto chooses among was measured, each against the same SUT.
    expect(Object.keys(level.engines)).toEqual(AUTO_CANDIDATES.filter((engine) => engine.availability().ok).map((engine) => engine.name))
    for (const figures of Object.values(level.engines)) expect(figures.requestsPerSec).toBeGreaterThan(0)
    // The choice follows the calibration: the most preferred engine that kept up with the fastest SUT (its cpu share not bound, its
    // rate near the fastest engine's), else the fastest engine here.
    const keptUp = AUTO_CANDIDATES.find((engine) => keptUpAt(level, engine.name).keepsUp)
    expect(engineChoice.engine).toBe(keptUp?.name ?? AUTO_CANDIDATES.find((engine) => engine.fastestHere)?.name)
    expect(engineChoice.reason).toContain(level.sut)
    for (const record of first.records) expect(record.load.engine).toBe(engineChoice.engine)

    const again = await run()
    expect(again.stderr).not.toMatch(MEASURING)
    expect(again.index.engineChoice).toEqual(engineChoice)
  }, 240_000)

  // Read back only as dyno wrote it (a-stored-calibration-is-used-only-as-dyno-wrote-it checks every file refused, and why); one
  // refused here is measured again, and its figures choose nothing.
  it('ignores a calibration not written by dyno with this cache directory, saying so in one line, and measures again', async () => {
    const file = join(cacheDir, CALIBRATION_FILE)
    // Made up: well formed, the right key, figures that would choose the other engine, but not sealed by this cache directory.
    const real = JSON.parse(readFileSync(file, 'utf8'))
    const flipped = Object.fromEntries(Object.entries(real.levels).map(([name, one]) => [name, {
      ...one,
      engines: Object.fromEntries(Object.entries(one.engines).map(([engine, figures]) => [engine,
        { ...figures, generatorBound: figures.generatorBound === false, requestsPerSec: 999_999 }]))
    }]))
    writeFileSync(file, JSON.stringify({ ...real, levels: flipped }))
    const madeUp = await run()
    expect(madeUp.stderr).toContain(
      `the engine calibration ${file} was not written by dyno with this cache directory (its seal does not hold): ` +
        'ignored, measured again'
    )
    expect(madeUp.stderr).toMatch(MEASURING)
    expect(JSON.stringify(madeUp.index.engineChoice)).not.toContain('999999')
  }, 240_000)

  it('takes an engine given by name as it is, without calibrating', async () => {
    const given = await run({ engine: 'autocannon' })
    expect(given.stderr).not.toMatch(MEASURING)
    expect(given.index.engineChoice).toMatchObject({ engine: 'autocannon', by: 'given' })
    for (const record of given.records) expect(record.load.engine).toBe('autocannon')
  }, 120_000)

  afterAll(() => runs.expectNoneLeft(expect))
})

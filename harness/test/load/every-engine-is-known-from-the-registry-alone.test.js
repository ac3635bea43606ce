// @ts-check
// The load engines are listed once, in load/engines/index.js. Everything that offers, judges, records or calibrates an
// engine must take the list from there: an engine added to the registry is offered by `--engine`, described in its help,
// allowed by the result and run-index schemas (checked here against the registry) and measured by `dyno calibrate`; what is
// special about an engine (the fastest here, one that spreads over hosts) is a property of its descriptor.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { COMMAND_OPTIONS } from '../../src/interface/cli/command-table.js'
import { flagName } from '../../src/platform/options/option-spec.js'
import { formatCalibration } from '../../src/interface/commands/calibrate-command.js'
import {
  atMachineLimit, AUTO_CANDIDATES, ENGINES, ENGINE_NAMES, engineNamed, engineProblem, engineRecorded, RECORDED_ENGINE_NAMES
} from '../../src/load/engines/index.js'

const resultSchema = JSON.parse(readFileSync(new URL('../../schema/result.schema.json', import.meta.url), 'utf8'))
const runIndexSchema = JSON.parse(readFileSync(new URL('../../schema/run-index.schema.json', import.meta.url), 'utf8'))
/** @typedef {import('../../src/platform/options/option-spec.js').OptionSpec} OptionSpec */
const engineOption = /** @type {OptionSpec} */ (COMMAND_OPTIONS.run.find((spec) => flagName(spec) === '--engine'))

describe('the engine registry', () => {
  it('names each engine once', () => {
    expect(new Set(ENGINE_NAMES).size).toBe(ENGINES.length)
    for (const name of ENGINE_NAMES) expect(engineNamed(name).name).toBe(name)
    expect(() => engineNamed('ab')).toThrowError('`--engine` must be one of autocannon, wrk, native, got `ab`')
  })

  it('is what --engine accepts (and auto, which chooses among them) and describes', () => {
    expect(engineOption.parse.domain).toEqual({ kind: 'oneOf', allowed: ['auto', ...ENGINE_NAMES] })
    for (const engine of ENGINES) expect(engineOption.description).toContain(engine.description)
  })

  it('is what a result may record as its engine, closed loop and open model', () => {
    const load = (/** @type {number | null} */ rate) => ({
      connections: [10],
      durationSec: 1,
      warmupSec: 0,
      ratePerSec: rate,
      settings: {}
    })
    const recorded = new Set(ENGINES.flatMap((engine) => [null, 500].filter((rate) => engine.refusal(load(rate)) === null)
      .map((rate) => engine.recordedAs(rate).engine)))
    expect(new Set(resultSchema.properties.load.properties.engine.enum)).toEqual(recorded)
    // Each engine says what it records, so that a result's engine leads back to it.
    expect(new Set(RECORDED_ENGINE_NAMES)).toEqual(recorded)
    for (const engine of ENGINES) {
      for (const rate of [null, 500]) expect(engine.recordedNames).toContain(engine.recordedAs(rate).engine)
      for (const name of engine.recordedNames) expect(engineRecorded(name)).toBe(engine)
    }
  })

  it('says which engines `--engine auto` chooses among, in its order, with the fastest among them to fall back on', () => {
    expect(AUTO_CANDIDATES).toEqual(ENGINES.filter((engine) => engine.autoPreference !== null)
      .sort((a, b) => Number(a.autoPreference) - Number(b.autoPreference)))
    expect(AUTO_CANDIDATES.some((engine) => engine.fastestHere)).toBe(true)
  })

  it('is what run.json may record as the run\'s engine', () => {
    expect(runIndexSchema.properties.engineChoice.properties.engine.enum).toEqual([...ENGINE_NAMES])
  })

  it('says which engine shows the limit of this machine when it sets the pace, and no caller names it', () => {
    for (const engine of ENGINES) {
      for (const recorded of engine.recordedNames) {
        const record = { load: { engine: recorded }, summary: { generatorBound: true } }
        expect(atMachineLimit(record)).toBe(engine.fastestHere)
        expect(atMachineLimit({ ...record, summary: { generatorBound: false } })).toBe(false)
      }
    }
    expect(ENGINES.filter((engine) => engine.fastestHere).length).toBeGreaterThan(0)
  })

  it('is what dyno calibrate measures, and names the engines it cannot measure here with the reason', () => {
    const text = formatCalibration([])
    for (const engine of ENGINES) {
      const found = engine.availability()
      expect(text).toContain(found.ok ? `${engine.name} ${found.version}` : `${engine.name} not measured: ${found.reason}`)
    }
  })

  it('judges what each engine cannot do before anything starts, naming the option', () => {
    const wrk = engineNamed('wrk')
    const load = { connections: [10, 15], durationSec: 1.5, warmupSec: 0, ratePerSec: null, settings: wrk.settingsOf({ wrkThreads: 2 }) }
    const problem = engineProblem(wrk, load)
    if (wrk.availability().ok) expect(problem).toBe('`--duration` must be whole seconds with `--engine wrk`, got `1.5`')
    else expect(problem).toMatch(/^`--engine wrk`: wrk is not installed/)
    expect(wrk.refusal({ ...load, durationSec: 1 })).toBe('`--wrk-threads` must divide every connection level, got `2` for 15')
    expect(wrk.refusal({ ...load, durationSec: 1, ratePerSec: 100 })).toMatch(/^`--rate` runs the open-model schedule, not wrk/)
    expect(engineNamed('autocannon').refusal(load)).toBeNull()
  })
})

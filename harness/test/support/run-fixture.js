// @ts-check
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SCENARIOS } from '@dyno/scenarios'
import { runSuite } from '../../src/suite/run-suite.js'
import { resolvePinning } from '../../src/platform/pinning/resolve-pinning.js'
import { parsePin } from '../../src/platform/pinning/parse-pin.js'
import { machineCpus } from '../../src/platform/pinning/cpu-list.js'
import { suiteOptions, TESTS_DISTURBED_ABOVE_PCT } from './suite-options.js'
import { waitingFor } from './waiting-for.js'
import { writtenRun } from './written-run.js'

export { TESTS_DISTURBED_ABOVE_PCT }

/** @param {string} name */
export const scenarioNamed = (name) => {
  const scenario = SCENARIOS.find((candidate) => candidate.name === name)
  if (!scenario) throw new Error(`no scenario ${name}`)
  return scenario
}

/**
 * The load of a short test run: one connection level's worth of settings, closed loop, autocannon, 1 s without warm-up.
 * @param {Partial<import('../../src/records/result-record.js').LoadSettings>} [overrides]
 * @returns {import('../../src/records/result-record.js').LoadSettings}
 */
export function shortLoad (overrides = {}) {
  return {
    pipelining: 1,
    streams: 1,
    durationSec: 1,
    warmupSec: 0,
    windowMs: 250,
    ratePerSec: null,
    engine: 'autocannon',
    runtimeEvents: false,
    measure: 'wall-clock',
    // A count, one at a time.
    ...(overrides.measure === 'instructions' ? { countJobs: 1 } : {}),
    ...overrides
  }
}

/**
 * Runs the harness in-process on the given SUTs and scenarios, writing into a fresh temporary
 * directory, with short load settings; returns the records as written to disk.
 * @param {{ suts: import('../../src/subjects/suts/discover-suts.js').SutDescriptor[], scenarios: string[],
 *   load?: Partial<import('../../src/records/result-record.js').LoadSettings>, connections?: number, readyTimeoutSec?: number, verify?:
 *   boolean, signal?: AbortSignal, runs: { add: (runId: string) => string }, hooks?: import('../../src/suite/run-suite.js').SuiteHooks,
 *   levels?: number[], repeats?: number, pin?: string, freshSut?: boolean, quietCheck?: 'on' | 'off', disturbedAbovePct?: number,
 *   sutHost?: import('../../src/platform/hosts/host.js').Host | null, engine?: import('../../src/load/engines/engine.js').Engine,
 *   measure?: import('../../src/measures/measure.js').Measure }} options the run is
 *   registered with `runs` as soon as it has an id; hooks are the harness's own (progress, services); load: shortLoad's overrides;
 *   connections: the one level (10), levels: several; pin: as `--pin` (auto by default); quietCheck and disturbedAbovePct: off and
 *   TESTS_DISTURBED_ABOVE_PCT unless the test is about disturbance; engine: a descriptor the registry need not list (the one
 *   `load.engine` names otherwise); measure: likewise, a measure the registry need not list (the one `load.measure` names otherwise)
 */
export async function runInTempDir ({
  suts,
  scenarios,
  load = {},
  connections = 10,
  readyTimeoutSec = 10,
  verify = true,
  signal = new AbortController().signal,
  runs,
  hooks = {},
  levels,
  repeats = 1,
  pin = 'auto',
  freshSut = false,
  quietCheck = /** @type {'on' | 'off'} */ ('off'),
  disturbedAbovePct = TESTS_DISTURBED_ABOVE_PCT,
  sutHost = null,
  engine,
  measure
}) {
  const out = mkdtempSync(join(tmpdir(), 'dyno-test-'))
  /** @type {string[]} */
  const cells = []
  const what = `a run of ${suts.map((sut) => sut.name).join(', ')} × ${scenarios.join(', ')} into ${out}`
  const outcome = await waitingFor(what, (progress) => runSuite(
    ...suiteOptions({
      suts,
      scenarios: scenarios.map(scenarioNamed),
      load: shortLoad({ ...load, ...(engine ? { engine: engine.name } : {}), ...(measure ? { measure: measure.name } : {}) }),
      ...(engine ? { engine } : {}),
      ...(measure ? { measure } : {}),
      connections: levels ?? [connections],
      repeats,
      out,
      verify,
      readyTimeoutSec,
      pinning: resolvePinning(parsePin(pin, '--pin', machineCpus())),
      quietCheck,
      disturbedAbovePct,
      freshSut,
      sutHost,
      signal,
      recorded: { test: true }
    }),
    {
      ...hooks,
      onStart: (info) => {
        runs.add(info.runId)
        hooks.onStart?.(info)
      },
      onResult: (record, file) => {
        cells.push(`${record.sut.name} × ${record.scenario.name} ${record.status}`)
        progress(`${cells.length} cells written (${cells.join(', ')})`)
        hooks.onResult?.(record, file)
      }
    }
  ))
  const { index, records: written } = writtenRun(outcome.runDir)
  return { ...outcome, index, written }
}

// @ts-check
// The one set-up of an in-process run (runSuite) that tests and bench scripts share: what they give is what their run is about
// (the SUTs, the scenarios, the load, where it goes, what run.json records of it), and everything else is as a plain `dyno run`
// of one round would have it. Each overrides what it measures differently.
import { engineNamed } from '../../src/load/engines/index.js'
import { measureNamed } from '../../src/measures/index.js'
import { DEFAULT_PIN } from '../../src/platform/pinning/parse-pin.js'
import { resolvePinning } from '../../src/platform/pinning/resolve-pinning.js'
import { DISTURBED_SHARE_PCT } from '../../src/judging/disturbance.js'

/**
 * The disturbance threshold of runs made by tests that are not about disturbance: tests share the machine with other test files, whose
 * processes would make every cell of theirs disturbed, and measured again, for nothing.
 */
export const TESTS_DISTURBED_ABOVE_PCT = 99

/** For a test that is not about disturbance: it neither looks at the machine first nor measures a cell again. */
export const ON_A_SHARED_MACHINE = Object.freeze({ quietCheck: /** @type {const} */ ('off'), disturbedAbovePct: TESTS_DISTURBED_ABOVE_PCT })

/**
 * @typedef {import('../../src/suite/prepare-run.js').RunSetup} RunSetup
 * @typedef {{ connections?: number[], repeats?: number, seed?: number, out: string, verify?: boolean, readyTimeoutSec?: number,
 *   pgPoolSize?: number, freshSut?: boolean, quietCheck?: 'on' | 'off', censusArgs?: 'on' | 'off', disturbedAbovePct?: number,
 *   signal?: AbortSignal }} GivenOptions the options of `dyno run` a test or bench sets (the rest as a plain `dyno run` of one round)
 * @param {Pick<RunSetup, 'suts' | 'scenarios' | 'load'> & Partial<Pick<RunSetup, 'engine' | 'measure' | 'pinning' | 'sutHost'>> &
 *   GivenOptions & { recorded: Record<string, unknown> }} given recorded: what run.json records of the test or bench beside its
 *   options (its name and what it varies), which is also its plan's identity; engine and measure: the ones its load names, unless given
 * @returns {[RunSetup, import('../../src/suite/run-suite.js').SuiteRun]} what runSuite is handed
 */
export function suiteOptions ({ recorded, suts, scenarios, load, engine, measure, pinning, sutHost, signal, ...given }) {
  const options = /** @type {import('../../src/suite/prepare-run.js').RunValues} */ (/** @type {unknown} */ ({
    connections: [10],
    repeats: 1,
    seed: 1,
    verify: true,
    readyTimeoutSec: 10,
    pgPoolSize: 4,
    freshSut: false,
    quietCheck: 'on',
    censusArgs: 'off',
    disturbedAbovePct: DISTURBED_SHARE_PCT,
    shard: null,
    countCache: false,
    sutHost: null,
    loadHosts: null,
    ...given,
    ...recorded
  }))
  /** @type {RunSetup} */
  const setup = {
    options,
    measure: measure ?? measureNamed(load.measure),
    engine: engine ?? engineNamed(load.engine),
    engineChoice: null,
    load,
    scenarios,
    frameworkCount: suts.length,
    suts,
    pinning: pinning ?? resolvePinning(DEFAULT_PIN),
    sutHost: sutHost ?? null,
    loadHosts: null,
    noisePlan: null,
    rankBy: { figure: 'req/s', by: 'no calibration' }
  }
  return [setup, { planFields: new Set(Object.keys(recorded)), signal: signal ?? new AbortController().signal }]
}

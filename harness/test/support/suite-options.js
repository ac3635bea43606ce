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
 * @typedef {import('../../src/suite/run-suite.js').SuiteOptions} SuiteOptions
 * @param {Pick<SuiteOptions, 'suts' | 'scenarios' | 'load' | 'out'> & { recorded: Record<string, unknown> } &
 *   Partial<Omit<SuiteOptions, 'recorded' | 'planOptions'>>} given recorded: what run.json records as its options (and its plan's
 *   identity): the test's or bench's name and what it varies; engine and measure: the ones its load names, unless given
 * @returns {SuiteOptions}
 */
export function suiteOptions ({ recorded, ...given }) {
  return {
    connections: [10],
    repeats: 1,
    seed: 1,
    verify: true,
    readyTimeoutSec: 10,
    pgPoolSize: 4,
    pinning: resolvePinning(DEFAULT_PIN),
    engineChoice: null,
    countCacheDir: null,
    freshSut: false,
    quietCheck: 'on',
    censusArgs: 'off',
    disturbedAbovePct: DISTURBED_SHARE_PCT,
    signal: new AbortController().signal,
    recorded,
    planOptions: recorded,
    engine: given.engine ?? engineNamed(given.load.engine),
    measure: given.measure ?? measureNamed(given.load.measure),
    ...given
  }
}

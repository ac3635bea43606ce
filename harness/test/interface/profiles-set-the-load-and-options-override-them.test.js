// @ts-check
import { LOAD_PROFILES, SCENARIOS } from '@dyno/scenarios'
import { expect, it } from 'vitest'
import { parseOptions } from '../../src/interface/cli/command-table.js'

it('runs the quick profile when none is named: every no-service scenario, short runs in 2 rounds', () => {
  const { values, given } = parseOptions('run', {})
  expect(values).toMatchObject({
    profile: 'quick',
    scenarios: LOAD_PROFILES.quick.scenarios,
    connections: [100],
    durationSec: 1,
    warmupSec: 0.15,
    launchWarmupSec: 0.2,
    repeats: 2
  })
  expect(values.scenarios).not.toContain('redis')
  expect(Number.isInteger(values.seed)).toBe(true)
  expect(given).toEqual(new Set())
})

it('takes a named profile, and explicit options over it', () => {
  expect(parseOptions('run', { '--profile': 'paper' }).values).toMatchObject({
    scenarios: ['json', 'fibonacci', 'redis', 'validation', 'error'], repeats: 10, durationSec: 10
  })
  const { values, given } = parseOptions('run', {
    '--profile': 'paper', '--repeats': '3', '--duration': '2', '--scenarios': 'json', '--connections': '10,100', '--seed': '9'
  })
  expect(values).toMatchObject({ scenarios: ['json'], repeats: 3, durationSec: 2, warmupSec: 3, connections: [10, 100], seed: 9 })
  expect(given).toEqual(new Set(['profile', 'repeats', 'durationSec', 'scenarios', 'connections', 'seed']))
  expect(parseOptions('run', { '--profile': 'standard' }).values.scenarios).toEqual(SCENARIOS.map((scenario) => scenario.name))
  // The sustained profile studies warm-up from a launch's first request: nothing warms its launches.
  expect(parseOptions('run', { '--profile': 'sustained' }).values).toMatchObject({ warmupSec: 0, launchWarmupSec: 0 })
  expect(parseOptions('run', { '--launch-warmup': '0' }).given).toEqual(new Set(['launchWarmupSec']))
})

it('gives compare-commits its own profile, and by instructions one round on the framework\'s own path', () => {
  expect(parseOptions('compare-commits', { '--measure': 'wall-clock' }).values)
    .toMatchObject({ profile: 'ci', repeats: LOAD_PROFILES.ci.repeats, scenarios: LOAD_PROFILES.ci.scenarios })
  expect(parseOptions('compare-commits', { '--measure': 'instructions' }).values).toMatchObject({
    repeats: 1,
    scenarios: ['plaintext', 'json', 'params']
  })
  expect(parseOptions('compare-commits', { '--measure': 'instructions', '--repeats': '2', '--scenarios': 'json' }).values)
    .toMatchObject({ repeats: 2, scenarios: ['json'] })
})

it('rejects an unknown profile and bad sweep levels, naming what is allowed', () => {
  expect(() => parseOptions('run', { '--profile': 'fast' }))
    .toThrowError('`--profile` must be one of quick, standard, paper, ci, sustained, protocols, got `fast`')
  expect(() => parseOptions('run', { '--connections': '10,abc' }))
    .toThrowError('`--connections` must be a whole number from 1 to 10000, or a comma-separated list of them, got `10,abc`')
  expect(() => parseOptions('run', { '--repeats': '0' })).toThrowError(/`--repeats` must be a whole number from 1 to 1000, got `0`/)
})

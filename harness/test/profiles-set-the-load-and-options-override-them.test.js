// @ts-check
import { LOAD_PROFILES } from '@dyno/scenarios'
import { expect, it } from 'vitest'
import { parseOptions } from '../src/cli/parse-options.js'
import { resolveRunSettings } from '../src/run/resolve-run-settings.js'

it('runs the quick profile when none is named: every no-service scenario, short runs', () => {
  const settings = resolveRunSettings(parseOptions('run', {}))
  expect(settings).toMatchObject({ profile: 'quick', scenarios: LOAD_PROFILES.quick.scenarios, connections: [100], durationSec: 2, warmupSec: 1, repeats: 1 })
  expect(settings.scenarios).not.toContain('redis')
  expect(Number.isInteger(settings.seed)).toBe(true)
})

it('takes a named profile, and explicit options over it', () => {
  expect(resolveRunSettings(parseOptions('run', { profile: 'paper' }))).toMatchObject({
    scenarios: ['json', 'fibonacci', 'redis', 'validation', 'error'], repeats: 10, durationSec: 10
  })
  expect(resolveRunSettings(parseOptions('run', {
    profile: 'paper', repeats: '3', duration: '2', scenarios: 'json', connections: '10,100', seed: '9'
  }))).toMatchObject({
    scenarios: ['json'], repeats: 3, durationSec: 2, warmupSec: 3, connections: [10, 100], seed: 9
  })
  expect(resolveRunSettings(parseOptions('run', { profile: 'standard' })).scenarios).toBeUndefined()
})

it('rejects an unknown profile and bad sweep levels, naming what is allowed', () => {
  expect(() => parseOptions('run', { profile: 'fast' })).toThrowError('`--profile` must be one of quick, standard, paper, ci, got `fast`')
  expect(() => parseOptions('run', { connections: '10,abc' }))
    .toThrowError('`--connections` must be a whole number from 1 to 10000, or a comma-separated list of them, got `10,abc`')
  expect(() => parseOptions('run', { repeats: 0 })).toThrowError(/`--repeats` must be a whole number from 1 to 1000, got `0`/)
})

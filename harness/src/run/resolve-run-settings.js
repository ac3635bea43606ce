// @ts-check
import { randomInt } from 'node:crypto'
import { LOAD_PROFILES } from '@dyno/scenarios'

/**
 * The settings of a run: the named profile, overridden by every option given explicitly.
 * @param {Record<string, any>} options validated by parseOptions('run', …)
 */
export function resolveRunSettings (options) {
  const profile = LOAD_PROFILES[/** @type {keyof typeof LOAD_PROFILES} */ (options.profile)]
  return {
    profile: /** @type {string} */ (options.profile),
    /** @type {string[] | undefined} undefined: every scenario */
    scenarios: options.scenarios ?? profile.scenarios ?? undefined,
    /** @type {number[]} */
    connections: options.connections ?? profile.connections,
    /** @type {number} */
    pipelining: options.pipelining ?? profile.pipelining,
    /** @type {number} */
    durationSec: options.durationSec ?? profile.durationSec,
    /** @type {number} */
    warmupSec: options.warmupSec ?? profile.warmupSec,
    /** @type {number} */
    repeats: options.repeats ?? profile.repeats,
    /** @type {number} */
    seed: options.seed ?? randomInt(2 ** 32 - 1)
  }
}

// @ts-check
import { DynoError, isDynoError } from '../../platform/errors.js'
import { providePostgres } from './postgres-service.js'
import { provideRedis } from './redis-service.js'
import { provideSqlite } from './sqlite-service.js'

/**
 * @typedef {(env: NodeJS.ProcessEnv, mark: Record<string, string>, host: import('../../platform/hosts/host.js').Host | null)
 *   => Promise<import('./service.js').Service>} Provider
 * @type {Record<string, Provider>}
 */
const PROVIDERS = { redis: provideRedis, postgres: providePostgres, sqlite: provideSqlite }

/**
 * The services a run uses: started once, when a selected scenario needs them; a service that cannot be
 * had is remembered with the reason (its scenarios end skipped, or failed under CI=true).
 * @typedef {object} Services
 * @property {Map<string, import('./service.js').Service>} available
 * @property {Map<string, string>} unavailable name → why, and how to get it
 * @property {() => Record<string, object>} describe versions and sources, for results
 * @property {(scenario: { services?: readonly string[] }) => string | null} missingFor why a scenario cannot run, or null
 * @property {(names: readonly string[]) => Record<string, string>} envFor what a SUT needs to reach these services
 * @property {(names: readonly string[]) => Promise<string | null>} ensureHealthy restarts dead ones; the reason when one cannot be had
 * @property {() => Promise<void>} stopAll
 */

/**
 * @param {Iterable<string>} names
 * @param {{ env?: NodeJS.ProcessEnv, mark?: Record<string, string>, host?: import('../../platform/hosts/host.js').Host | null }} [options]
 *   env: where URLs and PATH come from; mark: environment added to every server process started (DYNO_RUN_ID), so leftovers can be traced;
 *   host: where the SUTs run, and so their services (null: this machine)
 * @returns {Promise<Services>}
 */
export async function startServices (names, { env = process.env, mark = {}, host = null } = {}) {
  /** @type {Map<string, import('./service.js').Service>} */
  const available = new Map()
  /** @type {Map<string, string>} */
  const unavailable = new Map()
  for (const name of new Set(names)) {
    try {
      available.set(name, await PROVIDERS[name](env, mark, host))
    } catch (error) {
      if (!isDynoError(error)) throw error
      unavailable.set(name, error.message)
    }
  }
  return {
    available,
    unavailable,
    describe: () => Object.fromEntries([...available].map(([name, service]) => [name, { ...service.description }])),
    missingFor: (scenario) => {
      const missing = (scenario.services ?? []).filter((name) => unavailable.has(name))
      return missing.length === 0 ? null : missing.map((name) => `${name} is not available: ${unavailable.get(name)}`).join('; ')
    },
    envFor: (needed) => Object.assign({}, ...needed.map((name) => available.get(name)?.env ?? {})),
    ensureHealthy: async (needed) => {
      for (const name of needed) {
        const service = available.get(name)
        if (!service || await service.healthy()) continue
        try {
          await service.restart()
        } catch (error) {
          return `${name} is down and could not be restarted: ${/** @type {Error} */ (error).message}`
        }
      }
      return null
    },
    stopAll: async () => {
      const results = await Promise.allSettled([...available.values()].map((service) => service.stop()))
      const failed = results.filter((result) => result.status === 'rejected')
      if (failed.length > 0) {
        throw new DynoError(
          'DYNO_ERR_SERVICE_DIED',
          `could not stop every service: ${failed.map((result) => String(/** @type {PromiseRejectedResult} */ (result).reason?.message))
            .join('; ')}`
        )
      }
    }
  }
}

// @ts-check
import { findPostgresBinaries } from '../../src/services/postgres-service.js'
import { findExecutable } from '../../src/services/find-executable.js'

/** @type {Record<string, () => string | null>} why each service is missing here, or null */
const MISSING = {
  redis: () => process.env.REDIS_URL || findExecutable('redis-server')
    ? null
    : 'redis-server is not installed (apt-get install redis-server) and REDIS_URL is not set',
  postgres: () => process.env.DATABASE_URL || findPostgresBinaries()
    ? null
    : 'PostgreSQL is not installed (apt-get install postgresql) and DATABASE_URL is not set'
}

/**
 * Skips the test, saying why, when a service it needs is missing; under CI=true a missing service fails it.
 * @param {{ skip: (note?: string) => void }} context vitest's test context
 * @param {('redis' | 'postgres')[]} names
 */
export function requireServices (context, names) {
  const reasons = names.map((name) => MISSING[name]()).filter(Boolean)
  if (reasons.length === 0) return
  if (process.env.CI === 'true') throw new Error(`a service this test needs is missing under CI=true: ${reasons.join('; ')}`)
  context.skip(reasons.join('; '))
}

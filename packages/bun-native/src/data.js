// @ts-check
/// <reference path="./bun.d.ts" />
// The data sources on Bun: the shared clients (@dyno/scenarios/data) serve Redis (ioredis), PostgreSQL (pg,
// postgres.js) and the asynchronous sqlite scenario (sqlite3, a Node-API addon Bun loads) unchanged.
// better-sqlite3 cannot load on Bun ("'better-sqlite3' is not yet supported in Bun", a V8-API addon), so the
// synchronous sqlite scenario uses Bun's own bun:sqlite.
import { Database } from 'bun:sqlite'
import { WORLD_QUERY_SQLITE, openDataSources, randomWorldId, toWorldRow } from '@dyno/scenarios/data'

/**
 * Opens, once at start, a client for each data source the environment names, as `openDataSources` does on
 * Node, with bun:sqlite for the synchronous sqlite scenario.
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {Promise<import('@dyno/scenarios/data').DataSources>}
 */
export async function openBunDataSources (env = process.env) {
  const shared = await openDataSources(env)
  if (!env.SQLITE_PATH) return shared
  const database = new Database(env.SQLITE_PATH, { readonly: true })
  const statement = database.prepare(WORLD_QUERY_SQLITE)
  return {
    ...shared,
    sqliteWorld: () => toWorldRow(/** @type {any} */ (statement.get(randomWorldId()))),
    close: async () => {
      database.close()
      await shared.close()
    }
  }
}

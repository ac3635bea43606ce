// @ts-check
import { openDataSources } from './open-data-sources.js'
import { WORLD_QUERY_SQLITE, randomWorldId, toWorldRow } from './world.js'

/**
 * A runtime's own synchronous sqlite driver, for runtimes that cannot load better-sqlite3 (Bun's
 * `bun:sqlite` Database, Deno's `node:sqlite` DatabaseSync): what `sqliteWorld` needs of it.
 * @typedef {{ prepare (sql: string): { get (...params: unknown[]): unknown }, close (): void }} SyncSqliteDatabase
 */

/**
 * `openDataSources(env)`, with the synchronous sqlite scenario served by the runtime's own driver instead of
 * better-sqlite3: `openReadOnly(SQLITE_PATH)` opens the file read-only once at start, one prepared statement
 * answers each request, and `close` closes it before the shared clients. The driver comes from the caller,
 * so this module imports none (a runtime-only module such as `bun:sqlite` loads on its runtime only).
 * @param {(path: string) => SyncSqliteDatabase} openReadOnly opens the file read-only with the runtime's driver
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {Promise<import('./open-data-sources.js').DataSources>}
 */
export async function openDataSourcesWithOwnSqlite (openReadOnly, env = process.env) {
  const shared = await openDataSources(env)
  if (!env.SQLITE_PATH) return shared
  const database = openReadOnly(env.SQLITE_PATH)
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

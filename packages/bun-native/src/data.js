// @ts-check
/// <reference path="./bun.d.ts" />
// The data sources on Bun. The shared clients (@dyno/scenarios/data) serve Redis (ioredis) and PostgreSQL
// (pg, postgres.js) unchanged; better-sqlite3 cannot load on Bun ("'better-sqlite3' is not yet supported in
// Bun", a V8-API addon), so the synchronous sqlite scenario uses Bun's own bun:sqlite, and the asynchronous
// one the same sqlite3 driver (a Node-API addon, which Bun loads) the shared module uses.
import { Database } from 'bun:sqlite'
import sqlite3 from 'sqlite3'
import { WORLD_QUERY_SQLITE, openDataSources, randomWorldId } from '@dyno/scenarios/data'

/** @param {unknown} row @returns {{ id: number, randomNumber: number }} */
function toWorldRow (row) {
  if (!row) throw new Error('no world row for that id: the world table is not seeded')
  const { id, randomnumber } = /** @type {{ id: number, randomnumber: number }} */ (row)
  return { id, randomNumber: randomnumber }
}

/**
 * Opens, once at start, a client for each data source the environment names (REDIS_URL, DATABASE_URL,
 * PG_POOL_SIZE through the shared module; SQLITE_PATH here), as `openDataSources` does on Node.
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {Promise<import('@dyno/scenarios/data').DataSources>}
 */
export async function openBunDataSources (env = process.env) {
  const { SQLITE_PATH: sqlitePath, ...others } = env
  const shared = await openDataSources(others)
  if (!sqlitePath) return shared

  const database = new Database(sqlitePath, { readonly: true })
  const statement = database.prepare(WORLD_QUERY_SQLITE)
  /** @type {import('sqlite3').Database} */
  const asyncDatabase = await new Promise((resolve, reject) => {
    const opened = new sqlite3.Database(sqlitePath, sqlite3.OPEN_READONLY, (error) => error ? reject(error) : resolve(opened))
  }).catch(async (error) => {
    database.close()
    await shared.close()
    throw error
  })
  return {
    ...shared,
    sqliteWorld: () => toWorldRow(statement.get(randomWorldId())),
    sqliteAsyncWorld: () => new Promise((resolve, reject) => {
      asyncDatabase.get(WORLD_QUERY_SQLITE, [randomWorldId()], (error, row) => error ? reject(error) : resolve(toWorldRow(row)))
    }),
    close: async () => {
      database.close()
      await new Promise((resolve) => asyncDatabase.close(() => resolve(undefined)))
      await shared.close()
    }
  }
}

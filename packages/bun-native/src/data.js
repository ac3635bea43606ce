// @ts-check
/// <reference path="./bun.d.ts" />
// The data sources on Bun: the shared clients (@dyno/scenarios/data) serve Redis (ioredis), PostgreSQL (pg,
// postgres.js) and the asynchronous sqlite scenario (sqlite3, a Node-API addon Bun loads) unchanged.
// better-sqlite3 cannot load on Bun ("'better-sqlite3' is not yet supported in Bun", a V8-API addon), so the
// synchronous sqlite scenario uses Bun's own bun:sqlite.
import { Database } from 'bun:sqlite'
import { openDataSourcesWithOwnSqlite } from '@dyno/scenarios/data'

/**
 * Opens, once at start, a client for each data source the environment names, as `openDataSources` does on
 * Node, with bun:sqlite (read-only) for the synchronous sqlite scenario.
 * @param {NodeJS.ProcessEnv} [env]
 */
export function openBunDataSources (env = process.env) {
  return openDataSourcesWithOwnSqlite((path) => new Database(path, { readonly: true }), env)
}

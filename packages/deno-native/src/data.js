// @ts-check
/// <reference path="./deno.d.ts" />
// The data sources on Deno: the shared clients (@dyno/scenarios/data) serve Redis (ioredis), PostgreSQL (pg,
// postgres.js) and the asynchronous sqlite scenario (sqlite3, a Node-API addon Deno loads) unchanged.
// better-sqlite3 cannot load on Deno (it is built on the V8/nan addon ABI, which Deno does not expose), so the
// synchronous sqlite scenario uses Deno's own `node:sqlite` (DatabaseSync).
import { DatabaseSync } from 'node:sqlite'
import { openDataSourcesWithOwnSqlite } from '@dyno/scenarios/data'

/**
 * Opens, once at start, a client for each data source the environment names, as `openDataSources` does on
 * Node, with node:sqlite (read-only) for the synchronous sqlite scenario.
 * @param {NodeJS.ProcessEnv} [env]
 */
export function openDenoDataSources (env = process.env) {
  return openDataSourcesWithOwnSqlite((path) => new DatabaseSync(path, { readOnly: true }), env)
}

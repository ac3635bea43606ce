// @ts-check
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { WORLD_TABLE_DDL, worldRows } from '@dyno/scenarios/data'
import { DynoError } from '../errors.js'

/**
 * SQLite for the sqlite scenarios: a database file created and seeded in a temporary directory.
 * SQLite has no server, so there is nothing to restart and no server-side query count.
 * @returns {Promise<import('./service.js').Service>}
 */
export async function provideSqlite () {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-sqlite-'))
  const path = join(dir, 'world.sqlite')
  let version
  try {
    const database = new Database(path)
    database.exec(WORLD_TABLE_DDL)
    const insert = database.prepare('INSERT INTO world (id, randomnumber) VALUES (?, ?)')
    database.transaction(() => { for (const [id, randomNumber] of worldRows()) insert.run(id, randomNumber) })()
    version = /** @type {{ version: string }} */ (database.prepare('SELECT sqlite_version() AS version').get()).version
    database.close()
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw new DynoError('DYNO_ERR_SERVICE_UNAVAILABLE', `cannot create the SQLite database: ${/** @type {Error} */ (error).message}`, { cause: error })
  }
  return {
    name: 'sqlite',
    description: { version, source: 'managed', url: path },
    env: { SQLITE_PATH: path },
    healthy: async () => existsSync(path),
    restart: async () => {
      throw new DynoError('DYNO_ERR_SERVICE_DIED', `the SQLite database ${path} is gone`)
    },
    queryCount: null,
    stop: async () => { rmSync(dir, { recursive: true, force: true }) }
  }
}

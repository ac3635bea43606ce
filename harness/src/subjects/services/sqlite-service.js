// @ts-check
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { WORLD_TABLE_DDL, worldRows } from '@dyno/scenarios/data'
import { DynoError } from '../../platform/errors.js'
import { runNodeScript } from '../../platform/hosts/run-node-script.js'

/**
 * Creates and seeds the world table in a new SQLite file.
 * @param {string} path @returns {string} SQLite's version
 */
export function createWorldDatabase (path) {
  const database = new Database(path)
  try {
    database.exec(WORLD_TABLE_DDL)
    const insert = database.prepare('INSERT INTO world (id, randomnumber) VALUES (?, ?)')
    database.transaction(() => { for (const [id, randomNumber] of worldRows()) insert.run(id, randomNumber) })()
    return /** @type {{ version: string }} */ (database.prepare('SELECT sqlite_version() AS version').get()).version
  } finally {
    database.close()
  }
}

/**
 * SQLite for the sqlite scenarios: a database file created and seeded in a temporary directory, on the SUTs' host.
 * SQLite has no server, so there is nothing to restart and no server-side query count.
 * @param {NodeJS.ProcessEnv} [env]
 * @param {Record<string, string>} [mark]
 * @param {import('../../platform/hosts/host.js').Host | null} [host] where the SUTs run (null: this machine)
 * @returns {Promise<import('./service.js').Service>}
 */
export async function provideSqlite (env = process.env, mark = {}, host = null) {
  // A host with files of its own gets its database made there, by its checkout.
  if (host && !host.sharesFilesystem) return sqliteOnHost(host)
  const dir = mkdtempSync(join(tmpdir(), 'dyno-sqlite-'))
  const path = join(dir, 'world.sqlite')
  let version
  try {
    version = createWorldDatabase(path)
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw new DynoError('DYNO_ERR_SERVICE_UNAVAILABLE', `cannot create the SQLite database: ${/** @type {Error} */ (error).message}`, {
      cause: error
    })
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

/** The script that makes, checks and removes the database file on a host of its own. */
const ON_HOST_SCRIPT = 'harness/src/subjects/services/sqlite-world-file.js'

/** @param {import('../../platform/hosts/host.js').Host} host @returns {Promise<import('./service.js').Service>} */
async function sqliteOnHost (host) {
  /** @param {string[]} args @returns {Promise<unknown>} what the script replied (null for `remove`, which replies nothing) */
  const run = async (args) => {
    const { code, reply, stderr, lost } = await runNodeScript(host, ON_HOST_SCRIPT, args, { label: `sqlite ${args[0]}` })
    const failed = (/** @type {string} */ why) =>
      new DynoError('DYNO_ERR_SERVICE_UNAVAILABLE', `SQLite on ${host.name}: \`${args.join(' ')}\` failed: ${why}`)
    if (code !== 0) throw failed(lost ?? (stderr.trim().split('\n').pop() || `exit code ${code}`))
    if (args[0] === 'remove') return null
    if (!reply) throw failed(`its reply was not among the lines ${host.name} printed`)
    return reply.value
  }
  const created = /** @type {Record<string, unknown>} */ (await run(['create']))
  const { dir, path, version } = created ?? {}
  if (typeof dir !== 'string' || typeof path !== 'string' || typeof version !== 'string') {
    throw new DynoError('DYNO_ERR_SERVICE_UNAVAILABLE', `SQLite on ${host.name}: \`create\` replied no directory, path and version`)
  }
  return {
    name: 'sqlite',
    description: { version, source: 'managed', url: `${host.name}:${path}` },
    env: { SQLITE_PATH: path },
    healthy: async () => (await run(['exists', path]).catch(() => false)) === true,
    restart: async () => {
      throw new DynoError('DYNO_ERR_SERVICE_DIED', `the SQLite database ${path} on ${host.name} is gone`)
    },
    queryCount: null,
    stop: async () => { await run(['remove', dir]) }
  }
}

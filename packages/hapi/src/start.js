// @ts-check
import http2 from 'node:http2'
import { announceReady, listenOptions, openDataSourcesUntilSigterm, serveProtocol } from '@dyno/scenarios/sut'
import { createApp } from './app.js'

const { port, host } = listenOptions()
const { protocol, tls } = serveProtocol(['http1', 'tls', 'h2', 'h2c'])
// hapi's own server options for each protocol: `tls` (its node:https server), or a `listener` it is given (node:http2's servers; `tls:
// true` tells hapi that listener is secure).
// hapi types `listener` as node:http's server; an HTTP/2 server emits the same 'request' events with node:http2's compatible objects.
/** @param {http2.Http2Server | http2.Http2SecureServer} server @returns {import('node:http').Server} */
const asListener = (server) => /** @type {import('node:http').Server} */ (/** @type {unknown} */ (server))
/** @type {() => Pick<import('@hapi/hapi').ServerOptions, 'tls' | 'listener'>} */
const server = {
  http1: () => ({}),
  tls: () => ({ tls: tls ?? {} }),
  h2: () => ({ listener: asListener(http2.createSecureServer(tls ?? {})), tls: true }),
  h2c: () => ({ listener: asListener(http2.createServer()) })
}[protocol]
const data = await openDataSourcesUntilSigterm()
const app = createApp({ port, host, data, server: server() })
await app.start()
announceReady(Number(app.info.port))

// @ts-check
import { announceListening, listenOptions, openDataSourcesUntilSigterm, serveProtocol } from '@dyno/scenarios/sut'
import { createApp } from './app.js'

// Fastify's own listen takes an options object (Fastify 5 has no listen(port, host)), so not startServer.
const { port, host } = listenOptions()
const { protocol, tls } = serveProtocol(['http1', 'tls', 'h2', 'h2c'])
// Fastify's own server options for each protocol: `https` (node:https), `http2` with `https` (node:http2's secure server, HTTP/2 only),
// `http2` alone (HTTP/2 in cleartext).
const server = {
  http1: null,
  tls: { https: tls ?? {} },
  h2: { http2: /** @type {const} */ (true), https: tls ?? {} },
  h2c: { http2: /** @type {const} */ (true) }
}[protocol]
const app = createApp({ data: await openDataSourcesUntilSigterm(), server })
await app.listen({ port, host })
await announceListening(app.server)

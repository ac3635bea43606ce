// @ts-check
import http2 from 'node:http2'
import https from 'node:https'
import { startServer } from '@dyno/scenarios/sut'
import { createApp, createHandler } from './app.js'

/**
 * The request listener as node:http2's compatibility API calls it: its request and response have the methods of node:http's that
 * the handler uses (`url`, `method`, the body stream, `writeHead`, `end`).
 * @param {ReturnType<typeof createHandler>} handler
 */
const onHttp2 = (handler) =>
  /** @type {(req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void} */ (/** @type {unknown} */ (handler))

// node:http's siblings serve the other protocols with the same request listener: node:https, and node:http2.
await startServer(createApp, {
  tls: ({ data, tls }) => https.createServer(tls, createHandler({ data })),
  h2: ({ data, tls }) => http2.createSecureServer(tls, onHttp2(createHandler({ data }))),
  h2c: ({ data }) => http2.createServer(onHttp2(createHandler({ data })))
})

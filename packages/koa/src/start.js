// @ts-check
import http2 from 'node:http2'
import https from 'node:https'
import { startServer } from '@dyno/scenarios/sut'
import { createApp } from './app.js'

/** Koa's request listener, `app.callback()`, for a server of node:https or node:http2 (Koa's docs serve HTTPS and HTTP/2 with it). */
const callback = (/** @type {{ data: import('@dyno/scenarios/data').DataSources }} */ options) => createApp(options).callback()

await startServer(createApp, {
  tls: ({ data, tls }) => https.createServer(tls, callback({ data })),
  h2: ({ data, tls }) => http2.createSecureServer(tls, callback({ data })),
  h2c: ({ data }) => http2.createServer(callback({ data }))
})

// @ts-check
import { startServer } from '@dyno/scenarios/sut'
import { createApp } from './app.js'

// restify's own server options: `httpsServerOptions` (its node:https server) and `http2` (its node:http2 secure server, HTTP/2 only).
// Its `http2` is node:http2's secure server only: restify has no HTTP/2 in cleartext.
await startServer(createApp, {
  tls: ({ data, tls }) => createApp({ data, server: { httpsServerOptions: tls } }),
  h2: ({ data, tls }) => createApp({ data, server: { http2: tls } })
})

import { startServer } from '@dyno/scenarios/sut'
import { createApp } from './app.js'

// Fastify's own server options through the FastifyAdapter: `https` (node:https), `http2` with `https` (node:http2's secure server,
// HTTP/2 only), `http2` alone (HTTP/2 in cleartext).
await startServer(createApp, {
  tls: async ({ data, tls }) => createApp({ data, server: { https: tls } }),
  h2: async ({ data, tls }) => createApp({ data, server: { http2: true, https: tls } }),
  h2c: async ({ data }) => createApp({ data, server: { http2: true } })
})

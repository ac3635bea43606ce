// @ts-check
import { startServer } from '@dyno/scenarios/sut'
import { createApp } from './app.js'

// HTTP/1.1 over TLS: the same connections on node:tls's server, node:net's with TLS.
await startServer(createApp, { tls: ({ data, tls }) => createApp({ data, tls }) })

import { startServer } from '@dyno/scenarios/sut'
import { createApp } from './app.js'

// HTTP/1.1, and over TLS through Nest's httpsOptions. Express has no HTTP/2 (see README.md).
await startServer(createApp, { tls: async ({ data, tls }) => createApp({ data, httpsOptions: tls }) })

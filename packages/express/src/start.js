// @ts-check
import https from 'node:https'
import { startServer } from '@dyno/scenarios/sut'
import { createApp } from './app.js'

// HTTP/1.1 through app.listen; over TLS through node:https with the app as its handler, as Express's docs serve HTTPS.
await startServer(createApp, { tls: ({ data, tls }) => https.createServer(tls, createApp({ data })) })

// @ts-check
import https from 'node:https'
import { startServer } from '@dyno/scenarios/sut'
import { createApp, createListener } from './app.js'

// The app owns the server (donode's documented way): node:http, and node:https for TLS. Not node:http2: donode's request methods are
// added to node:http's IncomingMessage (see README.md).
await startServer(createApp, { tls: ({ data, tls }) => https.createServer(tls, createListener({ data })) })

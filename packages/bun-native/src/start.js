// @ts-check
/// <reference path="./bun.d.ts" />
import { serve } from 'bun'
import { announceReady, exitOnSigterm, listenOptions, serveProtocol } from '@dyno/scenarios/sut'
import { createApp } from './app.js'
import { openBunDataSources } from './data.js'

const { port, host } = listenOptions()
// Bun.serve serves HTTP/1.1, with WebSocket, and with its `tls` option HTTP/1.1 over TLS; see README.md for HTTP/2.
const { tls } = serveProtocol(['http1', 'tls'])
const data = await openBunDataSources()
exitOnSigterm(data.close)
const server = serve({ ...createApp({ data }), port, hostname: host, ...(tls ? { tls: { cert: tls.cert, key: tls.key } } : {}) })
announceReady(server.port)

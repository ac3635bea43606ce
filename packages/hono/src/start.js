// @ts-check
import http2 from 'node:http2'
import https from 'node:https'
import { serve } from '@hono/node-server'
import { WebSocketServer } from 'ws'
import { announceReady, listenOptions, openDataSourcesUntilSigterm, serveProtocol } from '@dyno/scenarios/sut'
import { createApp } from './app.js'

const { port, host } = listenOptions()
const { protocol, tls } = serveProtocol(['http1', 'tls', 'h2', 'h2c'])
/**
 * @hono/node-server's own options for each protocol: its `websocket` server (a `ws` server the adapter hands the upgrades of
 * upgradeWebSocket routes), or its `createServer` with `serverOptions` (node:https; node:http2's secure server, HTTP/2 only; HTTP/2 in
 * cleartext).
 * @type {() => Partial<import('@hono/node-server').ServerType extends never ? never : Parameters<typeof serve>[0]>}
 */
const serverOptions = {
  http1: () => ({ websocket: { server: new WebSocketServer({ noServer: true }) } }),
  tls: () => ({ createServer: https.createServer, serverOptions: tls ?? {} }),
  h2: () => ({ createServer: http2.createSecureServer, serverOptions: tls ?? {} }),
  h2c: () => ({ createServer: http2.createServer })
}[protocol]
const data = await openDataSourcesUntilSigterm()
serve({ fetch: createApp({ data }).fetch, port, hostname: host, ...serverOptions() }, (info) => announceReady(info.port))

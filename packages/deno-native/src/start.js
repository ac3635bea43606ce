// @ts-check
/// <reference path="./deno.d.ts" />
/* global Deno */
import { announceReady, exitOnSigterm, listenOptions, serveProtocol } from '@dyno/scenarios/sut'
import { createApp } from './app.js'
import { openDenoDataSources } from './data.js'

const { port, host } = listenOptions()
// Deno.serve serves HTTP/1.1, with WebSocket, and with its `cert` and `key` options TLS; see README.md for HTTP/2.
const { tls } = serveProtocol(['http1', 'tls'])
const data = await openDenoDataSources()
exitOnSigterm(data.close)
// onListen replaces Deno's own "Listening on …" line, which would come before the ready line on stdout.
const certificate = tls ? { cert: tls.cert.toString(), key: tls.key.toString() } : {}
Deno.serve({ port, hostname: host, onListen: ({ port: bound }) => announceReady(bound), ...certificate }, createApp({ data }))

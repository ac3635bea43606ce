// @ts-check
import { serve } from 'h3'
import { announceReady, boundPort, listenOptions, openDataSourcesUntilSigterm } from '@dyno/scenarios/sut'
import { createApp } from './app.js'

const { port, host } = listenOptions()
// Its SIGTERM handler comes before srvx's own (graceful shutdown): it closes the data clients and exits,
// which also ends srvx's wait for open connections (see the README).
const data = await openDataSourcesUntilSigterm()
// `silent` turns off srvx's "Listening on" and shutdown messages.
const server = await serve(createApp({ data }), { port, hostname: host, silent: true }).ready()
announceReady(boundPort(server.node?.server, port))

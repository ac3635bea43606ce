// @ts-check
import { serve } from 'h3'
import { openDataSources } from '@dyno/scenarios/data'
import { announceReady, exitOnSigterm, listenOptions } from '@dyno/scenarios/sut'
import { createApp } from './app.js'

const { port, host } = listenOptions()
const data = await openDataSources()
// Registered before srvx's own SIGTERM handler (graceful shutdown): it closes the data clients and exits,
// which also ends srvx's wait for open connections (see the README).
exitOnSigterm(data.close)
// `silent` turns off srvx's "Listening on" and shutdown messages.
const server = await serve(createApp({ data }), { port, hostname: host, silent: true }).ready()
const address = server.node?.server?.address()
announceReady(typeof address === 'object' && address ? address.port : port)

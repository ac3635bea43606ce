// @ts-check
import { announceListening, listenOptions, openDataSourcesUntilSigterm } from '@dyno/scenarios/sut'
import { createApp } from './app.js'

// Fastify's own listen takes an options object (Fastify 5 has no listen(port, host)), so not startServer.
const { port, host } = listenOptions()
const app = createApp({ data: await openDataSourcesUntilSigterm() })
await app.listen({ port, host })
await announceListening(app.server)

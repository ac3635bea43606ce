// @ts-check
import { announceReady, listenOptions, openDataSourcesUntilSigterm } from '@dyno/scenarios/sut'
import { createApp } from './app.js'

const { port, host } = listenOptions()
const data = await openDataSourcesUntilSigterm()
const server = createApp({ port, host, data })
await server.start()
announceReady(Number(server.info.port))

// @ts-check
import { openDataSources } from '@dyno/scenarios/data'
import { announceReady, exitOnSigterm, listenOptions } from '@dyno/scenarios/sut'
import { createApp } from './app.js'

const { port, host } = listenOptions()
const data = await openDataSources()
exitOnSigterm(data.close)
const server = createApp({ port, host, data })
await server.start()
announceReady(Number(server.info.port))

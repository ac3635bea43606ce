// @ts-check
import { announceReady, listenOptions } from '@dyno/scenarios/sut'
import { createApp } from './app.js'

const { port, host } = listenOptions()
const server = createApp({ port, host })
await server.start()
announceReady(Number(server.info.port))

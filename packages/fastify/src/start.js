// @ts-check
import { announceReady, listenOptions } from '@dyno/scenarios/sut'
import { createApp } from './app.js'

const { port, host } = listenOptions()
const app = createApp()
await app.listen({ port, host })
const address = app.server.address()
announceReady(typeof address === 'object' && address ? address.port : port)

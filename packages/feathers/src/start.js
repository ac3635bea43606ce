// @ts-check
import { once } from 'node:events'
import { announceReady, listenOptions } from '@dyno/scenarios/sut'
import { createApp } from './app.js'

const { port, host } = listenOptions()
const server = await createApp().listen(port, host)
if (!server.listening) await once(server, 'listening')
const address = server.address()
announceReady(typeof address === 'object' && address ? address.port : port)

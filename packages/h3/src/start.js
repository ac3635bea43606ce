// @ts-check
import { serve } from 'h3'
import { announceReady, listenOptions } from '@dyno/scenarios/sut'
import { createApp } from './app.js'

const { port, host } = listenOptions()
// `silent` turns off srvx's "Listening on" and shutdown messages.
const server = await serve(createApp(), { port, hostname: host, silent: true }).ready()
const address = server.node?.server?.address()
announceReady(typeof address === 'object' && address ? address.port : port)

// @ts-check
import { randomBytes } from 'node:crypto'
import { announceReady, listenOptions } from '@dyno/scenarios/sut'
import { createApp } from './app.js'

// AdonisJS's HTTP server process listens on the PORT and HOST environment variables.
const { port, host } = listenOptions()
process.env.PORT = String(port)
process.env.HOST = host
// The app key signs cookies, which the contract never sets: a fresh one per process is enough.
process.env.APP_KEY ??= randomBytes(32).toString('base64url')

const ignitor = createApp()
await ignitor.httpServer().start()
const server = await ignitor.getApp()?.container.make('server')
const address = server?.getNodeServer()?.address()
announceReady(typeof address === 'object' && address ? address.port : port)

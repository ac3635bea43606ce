// @ts-check
import { randomBytes } from 'node:crypto'
import { announceReady, boundPort, listenOptions, openDataSourcesUntilSigterm } from '@dyno/scenarios/sut'
import { createApp } from './app.js'

// AdonisJS's HTTP server process listens on the PORT and HOST environment variables.
const { port, host } = listenOptions()
process.env.PORT = String(port)
process.env.HOST = host
// The app key signs cookies, which the contract never sets: a fresh one per process is enough.
process.env.APP_KEY ??= randomBytes(32).toString('base64url')

// The app's own SIGTERM listener (src/app.js) terminates the app, which closes the HTTP server; the one
// openDataSourcesUntilSigterm registers closes the data clients and ends the process (they would keep it alive).
const data = await openDataSourcesUntilSigterm()
const ignitor = createApp({ data })
await ignitor.httpServer().start()
const server = await ignitor.getApp()?.container.make('server')
announceReady(boundPort(server?.getNodeServer(), port))

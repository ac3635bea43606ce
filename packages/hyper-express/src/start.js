// @ts-check
import { createRequire } from 'node:module'
import { announceReady, listenOptions } from '@dyno/scenarios/sut'
import { createApp } from './app.js'
import { isUwsNative } from './uws-native.js'

const { port, host } = listenOptions()
// The uWebSockets.js that counts is the one hyper-express itself loads.
const uwsNative = isUwsNative(createRequire(import.meta.url).resolve('hyper-express'))
let app
try {
  app = createApp()
} catch (error) {
  if (uwsNative) throw error
  // hyper-express calls uWS APIs (missingServerName) that the pure-JS fallback does not implement.
  throw new Error('hyper-express cannot run on the pure-JS uWebSockets.js fallback: the native uWS binary did not load', { cause: error })
}
await app.listen(port, host)
// hyper-express's default `auto_close` listens for SIGTERM and only closes the listen socket, which
// takes away Node's exit-on-SIGTERM: open keep-alive connections would hold the process for uWS's
// idle timeout (about 10 s). Its close runs first; then the process ends as a SIGTERM would end it.
process.once('SIGTERM', () => process.exit(128 + 15))
announceReady(app.port, { uwsNative })

// @ts-check
import uWS from 'uWebSockets.js'
import { announceReady, listenOptions } from '@dyno/scenarios/sut'
import { createApp } from './app.js'
import { isUwsNative } from './uws-native.js'

const { port, host } = listenOptions()
const app = createApp()
// uwebsockets-express's listen(port, cb) takes no host and hides the listen socket, so listen on the
// uWS App it wraps: its catch-all route is already registered there.
app.uWSApp.listen(host, port, (listenSocket) => {
  if (!listenSocket) throw new Error(`uWS could not listen on ${host}:${port}`)
  // The uWS App was made from this package's uWebSockets.js, so that is the one that counts.
  announceReady(uWS.us_socket_local_port(listenSocket), { uwsNative: isUwsNative(import.meta.url) })
})

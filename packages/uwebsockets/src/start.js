// @ts-check
import uWS from 'uWebSockets.js'
import { announceReady, listenOptions, openDataSourcesUntilSigterm } from '@dyno/scenarios/sut'
import { createApp } from './app.js'
import { isUwsNative } from './uws-native.js'

const { port, host } = listenOptions()
const data = await openDataSourcesUntilSigterm()
createApp({ data }).listen(host, port, (listenSocket) => {
  if (!listenSocket) throw new Error(`uWS could not listen on ${host}:${port}`)
  announceReady(uWS.us_socket_local_port(listenSocket), { uwsNative: isUwsNative(import.meta.url) })
})

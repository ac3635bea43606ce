// @ts-check
import uWS from 'uWebSockets.js'
import { openDataSources } from '@dyno/scenarios/data'
import { announceReady, exitOnSigterm, listenOptions } from '@dyno/scenarios/sut'
import { createApp } from './app.js'
import { isUwsNative } from './uws-native.js'

const { port, host } = listenOptions()
const data = await openDataSources()
exitOnSigterm(data.close)
createApp({ data }).listen(host, port, (listenSocket) => {
  if (!listenSocket) throw new Error(`uWS could not listen on ${host}:${port}`)
  announceReady(uWS.us_socket_local_port(listenSocket), { uwsNative: isUwsNative(import.meta.url) })
})

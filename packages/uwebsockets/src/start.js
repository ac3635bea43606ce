// @ts-check
import uWS from 'uWebSockets.js'
import { announceReady, listenOptions, openDataSourcesUntilSigterm, serveProtocol, tlsFiles } from '@dyno/scenarios/sut'
import { createApp } from './app.js'
import { isUwsNative } from './uws-native.js'

const { port, host } = listenOptions()
// uWS serves HTTP/1.1 (App) and HTTP/1.1 over TLS (SSLApp, which reads the certificate's files itself); it has no HTTP/2.
const { protocol } = serveProtocol(['http1', 'tls'])
const data = await openDataSourcesUntilSigterm()
createApp({ data, tls: protocol === 'tls' ? tlsFiles() : null }).listen(host, port, (listenSocket) => {
  if (!listenSocket) throw new Error(`uWS could not listen on ${host}:${port}`)
  announceReady(uWS.us_socket_local_port(listenSocket), { uwsNative: isUwsNative(import.meta.url) })
})

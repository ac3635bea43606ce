// @ts-check
import uWS from 'uWebSockets.js'
import { announceReady, listenOptions, openDataSourcesUntilSigterm, serveProtocol, tlsFiles } from '@dyno/scenarios/sut'
import { createApp } from './app.js'
import { isUwsNative } from './uws-native.js'

const { port, host } = listenOptions()
// The uWS App it wraps serves HTTP/1.1, or HTTP/1.1 over TLS as uWS's SSLApp (which reads the certificate's files); no HTTP/2.
const { protocol } = serveProtocol(['http1', 'tls'])
const data = await openDataSourcesUntilSigterm()
const tls = protocol === 'tls' ? tlsFiles() : null
const uwsApp = tls ? uWS.SSLApp({ cert_file_name: tls.certFile, key_file_name: tls.keyFile }) : uWS.App()
createApp(uwsApp, { data })
// uwebsockets-express's listen(port, cb) takes no host and keeps the listen socket to itself, so listen on
// the uWS App it wraps: its catch-all route is already registered there.
uwsApp.listen(host, port, (listenSocket) => {
  if (!listenSocket) throw new Error(`uWS could not listen on ${host}:${port}`)
  // The uWS App was made from this package's uWebSockets.js, so that is the one that counts.
  announceReady(uWS.us_socket_local_port(listenSocket), { uwsNative: isUwsNative(import.meta.url) })
})

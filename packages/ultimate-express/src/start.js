// @ts-check
import { createRequire } from 'node:module'
import { announceReady, listenOptions, openDataSourcesUntilSigterm, serveProtocol, tlsFiles } from '@dyno/scenarios/sut'
import { createApp } from './app.js'
import { isUwsNative } from './uws-native.js'

const { port, host } = listenOptions()
// ultimate-express serves HTTP/1.1 and, with the certificate in its uwsOptions, HTTP/1.1 over TLS (uWS's SSLApp); no HTTP/2.
const { protocol } = serveProtocol(['http1', 'tls'])
// The uWebSockets.js that counts is the one ultimate-express itself loads.
const uwsNative = isUwsNative(createRequire(import.meta.url).resolve('ultimate-express'))
const data = await openDataSourcesUntilSigterm()
// ultimate-express calls back with the bound port (read with uWS.us_socket_local_port), not an error.
createApp({ data, tls: protocol === 'tls' ? tlsFiles() : null }).listen(port, host, (boundPort) => {
  announceReady(boundPort, { uwsNative })
})

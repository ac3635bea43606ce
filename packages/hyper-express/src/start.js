// @ts-check
import { createRequire } from 'node:module'
import { announceReady, listenOptions, openDataSourcesUntilSigterm, serveProtocol, tlsFiles } from '@dyno/scenarios/sut'
import { createApp } from './app.js'
import { isUwsNative } from './uws-native.js'

const { port, host } = listenOptions()
// HyperExpress serves HTTP/1.1 and, with its cert_file_name and key_file_name, HTTP/1.1 over TLS (uWS's SSLApp); no HTTP/2.
const { protocol } = serveProtocol(['http1', 'tls'])
// The uWebSockets.js that counts is the one hyper-express itself loads.
const uwsNative = isUwsNative(createRequire(import.meta.url).resolve('hyper-express'))
// hyper-express's default `auto_close` (bound on listen, so it runs after the listener registered here) listens
// for SIGTERM itself and only closes the listen socket, which takes away Node's exit-on-SIGTERM: open keep-alive
// connections would hold the process for uWS's idle timeout (about 10 s). openDataSourcesUntilSigterm's
// exitOnSigterm ends the process (exit 0) once the data clients are closed, or after 2 s at most.
const data = await openDataSourcesUntilSigterm()
let app
try {
  app = createApp({ data, tls: protocol === 'tls' ? tlsFiles() : null })
} catch (error) {
  if (uwsNative) throw error
  // hyper-express calls uWS APIs (missingServerName) that the pure-JS fallback does not implement.
  throw new Error('hyper-express cannot run on the pure-JS uWebSockets.js fallback: the native uWS binary did not load', { cause: error })
}
await app.listen(port, host)
announceReady(app.port, { uwsNative })

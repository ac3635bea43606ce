// @ts-check
import { serve } from 'h3'
import { plugin as websocket } from 'crossws/server'
import { announceReady, boundPort, listenOptions, openDataSourcesUntilSigterm, serveProtocol, tlsFiles } from '@dyno/scenarios/sut'
import { createApp } from './app.js'

const { port, host } = listenOptions()
// What h3's server (srvx) serves: HTTP/1.1, with WebSocket through crossws's srvx plugin; with its `tls` option, TLS (srvx's node:http2
// secure server, which serves HTTP/1.1 too) and HTTP/2 (the same server with node:http2's allowHTTP1 off, so HTTP/2 only). srvx has no
// HTTP/2 in cleartext.
const { protocol } = serveProtocol(['http1', 'tls', 'h2'])
/** @returns {{ cert: string, key: string }} srvx's `tls`: the files of the certificate and its key */
const certificate = () => {
  const { certFile, keyFile } = tlsFiles()
  return { cert: certFile, key: keyFile }
}
const protocolOptions = {
  http1: () => ({ plugins: [websocket({})] }),
  tls: () => ({ tls: certificate(), node: { minVersion: /** @type {const} */ ('TLSv1.3') } }),
  h2: () => ({ tls: certificate(), node: { minVersion: /** @type {const} */ ('TLSv1.3'), allowHTTP1: false } })
}[protocol]
// Its SIGTERM handler comes before srvx's own (graceful shutdown): it closes the data clients and exits,
// which also ends srvx's wait for open connections (see the README).
const data = await openDataSourcesUntilSigterm()
// `silent` turns off srvx's "Listening on" and shutdown messages.
const server = await serve(createApp({ data }), { port, hostname: host, silent: true, ...protocolOptions() }).ready()
announceReady(boundPort(server.node?.server, port))

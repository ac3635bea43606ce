// @ts-check
import https from 'node:https'
import { startServer } from '@dyno/scenarios/sut'
import { createApp } from './app.js'

/**
 * Over TLS as Feathers' docs serve HTTPS: a node:https server with the app as its handler, then `app.setup(server)`, which is what the
 * app's own listen does after listening.
 * @param {{ data: import('@dyno/scenarios/data').DataSources, tls: import('@dyno/scenarios/sut').TlsOptions }} options
 */
function overTls ({ data, tls }) {
  const app = createApp({ data })
  return {
    async listen (/** @type {number} */ port, /** @type {string} */ host) {
      // The Feathers Express app is Express's request listener (a function), which its types do not say.
      const server = https
        .createServer(tls, /** @type {import('node:http').RequestListener} */ (/** @type {unknown} */ (app)))
        .listen(port, host)
      await app.setup(server)
      return server
    }
  }
}

await startServer(createApp, { tls: overTls })

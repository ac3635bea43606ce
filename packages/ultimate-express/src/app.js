// @ts-check
import express from 'ultimate-express'
import { addContractRoutes } from '@dyno/scenarios/express-api'
import { WEBSOCKET_PATH } from '@dyno/scenarios/work'

/**
 * ultimate-express's json parser hands a malformed body's SyntaxError to its error handling as it is
 * (Express's body-parser tags it 400), and its default error handler answers every error 500. This
 * error middleware, on /echo only, answers that parse error 400 and passes anything else on.
 * @type {import('ultimate-express').ErrorRequestHandler}
 */
function malformedJsonIs400 (error, req, res, next) {
  if (error instanceof SyntaxError) {
    res.status(400).send('Bad Request')
    return
  }
  next(error)
}

/**
 * Builds the ultimate-express app with the whole dyno contract (the shared Express-API routes); it has no
 * validator, so validation uses the shared check. `catch async errors` (ultimate-express's own setting, off
 * by default) hands an async handler's rejection to the error handling as Express 5 does; without it the
 * rejection is rethrown unhandled and ends the process.
 * WebSocket echo at /ws the way ultimate-express's README says: its uWS App's own `ws()` (`app.uwsApp`), as it has no server whose
 * upgrades one could take.
 * @param {{ data?: import('@dyno/scenarios/data').DataSources, tls?: { certFile: string, keyFile: string } | null }} [options] the data
 *   sources of the database scenarios; `tls`: the certificate's files, for its `uwsOptions` (uWS's SSLApp, HTTP/1.1 over TLS)
 */
export function createApp ({ data, tls = null } = {}) {
  const app = tls ? express({ uwsOptions: { cert_file_name: tls.certFile, key_file_name: tls.keyFile } }) : express()
  app.set('catch async errors', true)
  if (!tls) {
    // Every message back as it came; uWS answers the client's close with its code. A GET without an upgrade is not this route's:
    // uWS yields it to ultimate-express's catch-all, whose router answers it 404.
    app.uwsApp.ws(WEBSOCKET_PATH, { message: (socket, message, isBinary) => { socket.send(message, isBinary) } })
  }
  return addContractRoutes(app, { jsonBody: express.json(), data, echoErrorHandler: malformedJsonIs400 })
}

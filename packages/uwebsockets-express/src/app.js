// @ts-check
import express from 'express'
import uWS from 'uWebSockets.js'
import expressifyModule from 'uwebsockets-express'
import { addContractRoutes } from '@dyno/scenarios/express-api'
import { WEBSOCKET_PATH } from '@dyno/scenarios/work'

// uwebsockets-express ships ESM-shaped type declarations in a CommonJS package, so TypeScript (nodenext)
// sees its function as `.default`; at run time `import` loads build/index.mjs, whose default is the function.
const expressify = /** @type {typeof expressifyModule.default} */ (/** @type {unknown} */ (expressifyModule))

/**
 * Express's json parser tags a malformed body's error 400 and Express's final handler would answer it,
 * but under uwebsockets-express 2.0.4 that answer never comes: its request emits 'end' before it sets
 * `complete`, so the final handler (on-finished) waits for an end that already happened and the request
 * hangs. This error middleware, on /echo only, answers the parser's 400 itself and passes anything else on.
 * @type {import('express').ErrorRequestHandler}
 */
function malformedJsonIs400 (error, req, res, next) {
  if (error?.type === 'entity.parse.failed') {
    res.status(400).send('Bad Request')
    return
  }
  next(error)
}

/**
 * Builds the uwebsockets-express app (Express 5's router, request/response API and error handling on a
 * uWS App) with the whole dyno contract (the shared Express-API routes). Express has no validator, so validation
 * uses the shared check. It is not listening yet: the caller listens on the uWS App it wraps. WebSocket echo at /ws is the uWS App's own
 * `ws()`: uwebsockets-express is the HTTP layer of a uWS App whose WebSockets stay uWS's (it was written for Colyseus's).
 * @param {import('uWebSockets.js').TemplatedApp} [uwsApp] the uWS App to wrap: `uWS.App()`, or `uWS.SSLApp(…)` for HTTP/1.1 over TLS
 * @param {{ data?: import('@dyno/scenarios/data').DataSources }} [options] the data sources of the database scenarios
 */
export function createApp (uwsApp = uWS.App(), { data } = {}) {
  // Every message back as it came; uWS answers the client's close with its code. A GET without an upgrade is not this route's: uWS
  // yields it to the catch-all of uwebsockets-express, whose router answers it 404.
  uwsApp.ws(WEBSOCKET_PATH, { message: (socket, message, isBinary) => { socket.send(message, isBinary) } })
  return addContractRoutes(expressify(uwsApp), { jsonBody: express.json(), data, echoErrorHandler: malformedJsonIs400 })
}

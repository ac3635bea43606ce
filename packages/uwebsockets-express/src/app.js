// @ts-check
import express from 'express'
import uWS from 'uWebSockets.js'
import expressifyModule from 'uwebsockets-express'
import { addContractRoutes } from '@dyno/scenarios/express-api'

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
 * uses the shared check. It is not listening yet: the caller listens on the uWS App it wraps.
 * @param {import('uWebSockets.js').TemplatedApp} [uwsApp] the uWS App to wrap
 * @param {{ data?: import('@dyno/scenarios/data').DataSources }} [options] the data sources of the database scenarios
 */
export function createApp (uwsApp = uWS.App(), { data } = {}) {
  return addContractRoutes(expressify(uwsApp), { jsonBody: express.json(), data, echoErrorHandler: malformedJsonIs400 })
}

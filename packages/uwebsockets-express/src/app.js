// @ts-check
import express from 'express'
import uWS from 'uWebSockets.js'
import expressifyModule from 'uwebsockets-express'
import {
  EXTRA_ROUTES, HELLO_TEXT, errorOrOk, extraRouteBody, fibonacciResult, helloMessage, routeParams,
  validateQuery, validationResult
} from '@dyno/scenarios/work'
import { NO_DATA_SOURCES } from '@dyno/scenarios/data'

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
 * uWS App) with the whole dyno contract, written as for Express. Express has no validator, so validation
 * uses the shared check. It is not listening yet: the caller listens on the uWS App it wraps.
 * @param {import('uWebSockets.js').TemplatedApp} [uwsApp] the uWS App to wrap
 * @param {{ data?: import('@dyno/scenarios/data').DataSources }} [options] the data sources of the database scenarios
 */
export function createApp (uwsApp = uWS.App(), { data = NO_DATA_SOURCES } = {}) {
  const app = expressify(uwsApp)
  app.get('/plaintext', (req, res) => { res.type('text/plain').send(HELLO_TEXT) })
  app.get('/json', (req, res) => { res.json(helloMessage()) })
  app.get('/users/:userId/posts/:postId', (req, res) => { res.json(routeParams(req.params.userId, req.params.postId)) })
  app.post('/echo', express.json(), (req, res) => { res.json(req.body) }, malformedJsonIs400)
  app.get('/fibonacci', (req, res) => { res.json(fibonacciResult()) })
  app.get('/error/:flag', (req, res) => { res.json(errorOrOk(req.params.flag)) })
  app.get('/validation', (req, res) => {
    const checked = validateQuery(req.query)
    if (!checked.ok) {
      res.status(400).json({ error: checked.message })
      return
    }
    res.json(validationResult(checked.value.number, checked.value.text))
  })
  app.get('/redis', async (req, res) => { res.json(await data.redisMessage()) })
  app.get('/sqlite', (req, res) => { res.json(data.sqliteWorld()) })
  app.get('/sqlite-async', async (req, res) => { res.json(await data.sqliteAsyncWorld()) })
  app.get('/postgres', async (req, res) => { res.json(await data.postgresWorld()) })
  app.get('/postgres-js', async (req, res) => { res.json(await data.postgresJsWorld()) })
  for (const route of EXTRA_ROUTES) {
    app.get(route.path, (req, res) => { res.json(extraRouteBody(route.path, /** @type {Record<string, string>} */ (req.params))) })
  }
  return app
}

// @ts-check
// The dyno contract written once against the Express API, for Express and the frameworks that re-implement it
// (ultimate-express, uwebsockets-express). It imports no framework: each SUT passes its own app, its own JSON
// body parser and, where its framework needs one, an error middleware for POST /echo.
import { NO_DATA_SOURCES } from './data/open-data-sources.js'
import {
  EXTRA_ROUTES, HELLO_TEXT, errorOrOk, extraRouteBody, fibonacciResult, helloMessage, routeParams,
  validateQuery, validationResult
} from './work/index.js'

/**
 * The part of the Express API the contract uses, in method signatures so that each framework's own (wider)
 * request, response and handler types fit. A `Middleware` is the framework's own, passed on as it is.
 * @typedef {{ params: Record<string, string>, query: Record<string, unknown>, body?: unknown }} ExpressRequest
 * @typedef {{ type (type: string): ExpressResponse, status (code: number): ExpressResponse, send (body: string): unknown,
 *   json (body: unknown): unknown }} ExpressResponse
 * @typedef {{ handle (req: ExpressRequest, res: ExpressResponse): unknown }['handle']} ExpressHandler
 * @typedef {(...args: any[]) => unknown} Middleware
 * @typedef {{ get (path: string, handler: ExpressHandler): unknown,
 *   post (path: string, jsonBody: Middleware, handler: ExpressHandler, ...errorHandlers: Middleware[]): unknown }} ExpressApp
 */

/**
 * Registers every route of the contract on an Express-API app, each calling the shared work function; these
 * frameworks have no validator, so validation uses the shared `validateQuery`. A thrown error, a rejected async
 * handler and an unknown path are left to the framework's own error and not-found handling.
 * @template {ExpressApp} App
 * @param {App} app the framework's app (`express()`, ultimate-express's `express()`, `expressify(uWS.App())`)
 * @param {object} options
 * @param {Middleware} options.jsonBody the framework's JSON body parser (its `express.json()`), run before POST /echo's handler
 * @param {import('./data/index.js').DataSources} [options.data] the data sources of the database scenarios
 * @param {Middleware} [options.echoErrorHandler] an error middleware after POST /echo's handler, for a
 *   framework whose own error handling does not answer a malformed body 400
 * @returns {App}
 */
export function addContractRoutes (app, { jsonBody, data = NO_DATA_SOURCES, echoErrorHandler }) {
  app.get('/plaintext', (req, res) => { res.type('text/plain').send(HELLO_TEXT) })
  app.get('/json', (req, res) => { res.json(helloMessage()) })
  app.get('/users/:userId/posts/:postId', (req, res) => { res.json(routeParams(req.params.userId, req.params.postId)) })
  app.post('/echo', jsonBody, (req, res) => { res.json(req.body) }, ...(echoErrorHandler ? [echoErrorHandler] : []))
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
    app.get(route.path, (req, res) => { res.json(extraRouteBody(route.path, req.params)) })
  }
  return app
}

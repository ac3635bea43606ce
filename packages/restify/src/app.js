// @ts-check
import restify from 'restify'
import {
  EXTRA_ROUTES, HELLO_TEXT, errorOrOk, extraRouteBody, fibonacciResult, helloMessage, routeParams,
  validateQuery, validationResult
} from '@dyno/scenarios/work'
import { NO_DATA_SOURCES } from '@dyno/scenarios/data'

/**
 * Builds the restify server with the whole dyno contract. It is not listening yet.
 * Handlers are async functions (restify's async/await handler style, since 9.x): a throw becomes a
 * rejection that restify passes to `next(err)` and answers 500 itself. Restify has no validator, so
 * validation uses the shared check. The silent pino logger is the "logging off" rule.
 * @param {{ data?: import('@dyno/scenarios/data').DataSources, server?: { httpsServerOptions?: object, http2?: object } }} [options]
 *   the data sources of the database scenarios; `server`: restify's options of the server for a protocol other than HTTP/1.1 in
 *   cleartext (`httpsServerOptions`, `http2`)
 */
export function createApp ({ data = NO_DATA_SOURCES, server: serverOptions = {} } = {}) {
  const server = restify.createServer({ log: restify.logger({ level: 'silent' }), ...serverOptions })
  server.get('/plaintext', async (req, res) => {
    res.setHeader('content-type', 'text/plain')
    res.send(HELLO_TEXT)
  })
  server.get('/json', async (req, res) => { res.send(helloMessage()) })
  server.get('/users/:userId/posts/:postId', async (req, res) => {
    res.send(routeParams(req.params.userId, req.params.postId))
  })
  server.post('/echo', restify.plugins.jsonBodyParser(), async (req, res) => { res.send(req.body) })
  server.get('/fibonacci', async (req, res) => { res.send(fibonacciResult()) })
  server.get('/error/:flag', async (req, res) => { res.send(errorOrOk(req.params.flag)) })
  server.get('/validation', restify.plugins.queryParser(), async (req, res) => {
    const checked = validateQuery(req.query)
    if (!checked.ok) {
      res.send(400, { error: checked.message })
      return
    }
    res.send(validationResult(checked.value.number, checked.value.text))
  })
  server.get('/redis', async (req, res) => { res.send(await data.redisMessage()) })
  server.get('/sqlite', async (req, res) => { res.send(data.sqliteWorld()) })
  server.get('/sqlite-async', async (req, res) => { res.send(await data.sqliteAsyncWorld()) })
  server.get('/postgres', async (req, res) => { res.send(await data.postgresWorld()) })
  server.get('/postgres-js', async (req, res) => { res.send(await data.postgresJsWorld()) })
  for (const route of EXTRA_ROUTES) {
    server.get(route.path, async (req, res) => { res.send(extraRouteBody(route.path, req.params)) })
  }
  return server
}

// @ts-check
import express from 'ultimate-express'
import {
  EXTRA_ROUTES, HELLO_TEXT, errorOrOk, extraRouteBody, fibonacciResult, helloMessage, routeParams,
  validateQuery, validationResult
} from '@dyno/scenarios/work'
import { NO_DATA_SOURCES } from '@dyno/scenarios/data'

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
 * Builds the ultimate-express app with the whole dyno contract, written as for Express; it has no
 * validator, so validation uses the shared check. `catch async errors` (ultimate-express's own setting, off
 * by default) hands an async handler's rejection to the error handling as Express 5 does; without it the
 * rejection is rethrown unhandled and ends the process.
 * @param {{ data?: import('@dyno/scenarios/data').DataSources }} [options] the data sources of the database scenarios
 */
export function createApp ({ data = NO_DATA_SOURCES } = {}) {
  const app = express()
  app.set('catch async errors', true)
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
    app.get(route.path, (req, res) => { res.json(extraRouteBody(route.path, req.params)) })
  }
  return app
}

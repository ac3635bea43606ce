// @ts-check
import express from 'express'
import {
  EXTRA_ROUTES, HELLO_TEXT, errorOrOk, extraRouteBody, fibonacciResult, helloMessage, routeParams,
  validateQuery, validationResult
} from '@dyno/scenarios/work'
import { NO_DATA_SOURCES } from '@dyno/scenarios/data'

/**
 * Builds the Express app with the whole dyno contract; Express has no validator, so validation uses the shared check.
 * @param {{ data?: import('@dyno/scenarios/data').DataSources }} [options] the data sources of the database scenarios
 */
export function createApp ({ data = NO_DATA_SOURCES } = {}) {
  const app = express()
  app.get('/plaintext', (req, res) => { res.type('text/plain').send(HELLO_TEXT) })
  app.get('/json', (req, res) => { res.json(helloMessage()) })
  app.get('/users/:userId/posts/:postId', (req, res) => { res.json(routeParams(req.params.userId, req.params.postId)) })
  app.post('/echo', express.json(), (req, res) => { res.json(req.body) })
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

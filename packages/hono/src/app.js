// @ts-check
import { upgradeWebSocket } from '@hono/node-server'
import { Hono } from 'hono'
import { validator } from 'hono/validator'
import {
  EXTRA_ROUTES, HELLO_TEXT, WEBSOCKET_PATH, errorOrOk, extraRouteBody, fibonacciResult, helloMessage, routeParams,
  validateQuery, validationResult
} from '@dyno/scenarios/work'
import { NO_DATA_SOURCES } from '@dyno/scenarios/data'

/**
 * Hono's built-in validator for the query, checking VALIDATION_RULES with the shared check
 * (hono/validator takes a function and brings no rule language of its own).
 */
const validQuery = validator('query', (query, c) => {
  const checked = validateQuery(query)
  if (!checked.ok) return c.json({ error: checked.message }, 400)
  return checked.value
})

/** Hono's built-in JSON body validator: parses the body and answers 400 on malformed JSON. */
const jsonBody = validator('json', (body) => body)

/**
 * Builds the Hono app with the whole dyno contract.
 * @param {{ data?: import('@dyno/scenarios/data').DataSources }} [options] the data sources of the database scenarios
 */
export function createApp ({ data = NO_DATA_SOURCES } = {}) {
  const app = new Hono()
  app.get('/plaintext', (c) => c.text(HELLO_TEXT))
  app.get('/json', (c) => c.json(helloMessage()))
  app.get('/users/:userId/posts/:postId', (c) => c.json(routeParams(c.req.param('userId'), c.req.param('postId'))))
  app.post('/echo', jsonBody, (c) => c.json(c.req.valid('json')))
  app.get('/fibonacci', (c) => c.json(fibonacciResult()))
  app.get('/error/:flag', (c) => c.json(errorOrOk(c.req.param('flag'))))
  app.get('/validation', validQuery, (c) => {
    const { number, text } = c.req.valid('query')
    return c.json(validationResult(number, text))
  })
  app.get('/redis', async (c) => c.json(await data.redisMessage()))
  app.get('/sqlite', (c) => c.json(data.sqliteWorld()))
  app.get('/sqlite-async', async (c) => c.json(await data.sqliteAsyncWorld()))
  app.get('/postgres', async (c) => c.json(await data.postgresWorld()))
  app.get('/postgres-js', async (c) => c.json(await data.postgresJsWorld()))
  // WebSocket echo through the Node adapter's upgradeWebSocket (Hono's WebSocket helper, for a server started with a `websocket`
  // option); a GET without an upgrade passes through it to Hono's 404.
  app.get(WEBSOCKET_PATH, upgradeWebSocket(() => ({ onMessage: (event, ws) => ws.send(event.data) })))
  for (const route of EXTRA_ROUTES) {
    app.get(route.path, (c) => c.json(extraRouteBody(route.path, c.req.param())))
  }
  return app
}

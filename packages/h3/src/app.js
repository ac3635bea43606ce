// @ts-check
import { H3, HTTPError, defineWebSocketHandler, getRouterParam, getRouterParams, getValidatedQuery, readBody } from 'h3'
import {
  EXTRA_ROUTES, HELLO_TEXT, WEBSOCKET_PATH, errorOrOk, extraRouteBody, fibonacciResult, helloMessage, routeParams,
  validateQuery, validationResult
} from '@dyno/scenarios/work'
import { NO_DATA_SOURCES } from '@dyno/scenarios/data'

/**
 * The validator function h3's `getValidatedQuery` runs: the shared check of VALIDATION_RULES, since h3
 * brings no rule language of its own. A thrown HTTPError is answered by h3 as 400.
 * @param {Record<string, unknown>} query
 */
function checkQuery (query) {
  const checked = validateQuery(query)
  if (!checked.ok) throw new HTTPError({ status: 400, message: checked.message })
  return checked.value
}

/**
 * Builds the h3 app with the whole dyno contract. `silent` turns off h3's logging of unhandled errors.
 * @param {{ data?: import('@dyno/scenarios/data').DataSources }} [options] the data sources of the database scenarios
 */
export function createApp ({ data = NO_DATA_SOURCES } = {}) {
  const app = new H3({ silent: true })
  app.get('/plaintext', () => HELLO_TEXT)
  app.get('/json', () => helloMessage())
  app.get('/users/:userId/posts/:postId', (event) =>
    routeParams(String(getRouterParam(event, 'userId')), String(getRouterParam(event, 'postId'))))
  app.post('/echo', (event) => readBody(event))
  app.get('/fibonacci', () => fibonacciResult())
  app.get('/error/:flag', (event) => errorOrOk(String(getRouterParam(event, 'flag'))))
  app.get('/validation', async (event) => {
    const { number, text } = await getValidatedQuery(event, checkQuery)
    return validationResult(number, text)
  })
  app.get('/redis', () => data.redisMessage())
  app.get('/sqlite', () => data.sqliteWorld())
  app.get('/sqlite-async', () => data.sqliteAsyncWorld())
  app.get('/postgres', () => data.postgresWorld())
  app.get('/postgres-js', () => data.postgresJsWorld())
  // WebSocket echo through h3's defineWebSocketHandler (crossws hooks; the server's crossws plugin upgrades, see start.js): each message
  // back as it came, a string as text, bytes as binary. A GET without an upgrade gets its 426 Upgrade Required.
  app.get(
    WEBSOCKET_PATH,
    defineWebSocketHandler({
      message: (peer, message) => {
        peer.send(/** @type {string | Buffer} */ (message.rawData))
      }
    })
  )
  for (const route of EXTRA_ROUTES) {
    app.get(route.path, (event) => extraRouteBody(route.path, getRouterParams(event)))
  }
  return app
}

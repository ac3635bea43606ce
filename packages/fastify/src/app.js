// @ts-check
import Fastify from 'fastify'
import websocket from '@fastify/websocket'
import {
  EXTRA_ROUTES, HELLO_TEXT, VALIDATION_RULES, WEBSOCKET_PATH, errorOrOk, extraRouteBody, fibonacciResult, helloMessage,
  routeParams, validationResult
} from '@dyno/scenarios/work'
import { NO_DATA_SOURCES } from '@dyno/scenarios/data'

/** The validation scenario's rules as a fastify route schema, checked by fastify's ajv. */
const validationSchema = {
  querystring: {
    type: 'object',
    required: ['number', 'text'],
    properties: {
      number: { type: VALIDATION_RULES.numberType },
      text: { type: 'string', minLength: VALIDATION_RULES.textMinLength }
    }
  }
}

/**
 * WebSocket echo at /ws through @fastify/websocket, registered in a context of its own: the plugin's hooks (onRequest, onResponse,
 * onRoute) then run for this route only, as Fastify's encapsulation keeps a plugin's hooks to the context it is registered in.
 * @param {import('fastify').FastifyInstance} scope
 */
async function webSocketEcho (scope) {
  await scope.register(websocket)
  scope.get(WEBSOCKET_PATH, { websocket: true }, (socket) => {
    socket.on('message', (message, isBinary) => socket.send(/** @type {Buffer} */ (message), { binary: isBinary }))
  })
}

/**
 * Builds the Fastify app with the whole dyno contract. Logging is off (fastify's default).
 * @param {{ data?: import('@dyno/scenarios/data').DataSources, server?: { https?: object, http2?: true } | null }} [options] the data
 *   sources of the database scenarios; `server`: Fastify's options of the server for a protocol other than HTTP/1.1 in cleartext
 *   (`https`, `http2`); without them the app serves HTTP/1.1, with WebSocket at /ws
 */
export function createApp ({ data = NO_DATA_SOURCES, server = null } = {}) {
  // One type for the app whatever its server: Fastify types an HTTP/2 app (and its options) apart, with the same routes and hooks.
  const options = /** @type {import('fastify').FastifyHttpOptions<import('node:http').Server>} */ ({ logger: false, ...server })
  const app = /** @type {import('fastify').FastifyInstance} */ (/** @type {unknown} */ (Fastify(options)))
  app.get('/plaintext', async (request, reply) => reply.type('text/plain; charset=utf-8').send(HELLO_TEXT))
  app.get('/json', async () => helloMessage())
  app.get('/users/:userId/posts/:postId', async (request) => {
    const { userId, postId } = /** @type {{ userId: string, postId: string }} */ (request.params)
    return routeParams(userId, postId)
  })
  app.post('/echo', async (request) => request.body)
  app.get('/fibonacci', async () => fibonacciResult())
  app.get('/error/:flag', async (request) => errorOrOk(/** @type {{ flag: string }} */ (request.params).flag))
  app.get('/validation', { schema: validationSchema }, async (request) => {
    const { number, text } = /** @type {{ number: number, text: string }} */ (request.query)
    return validationResult(number, text)
  })
  app.get('/redis', async () => data.redisMessage())
  app.get('/sqlite', async () => data.sqliteWorld())
  app.get('/sqlite-async', async () => data.sqliteAsyncWorld())
  app.get('/postgres', async () => data.postgresWorld())
  app.get('/postgres-js', async () => data.postgresJsWorld())
  for (const route of EXTRA_ROUTES) {
    app.get(route.path, async (request) =>
      extraRouteBody(route.path, /** @type {Record<string, string>} */ (request.params)))
  }
  if (!server) app.register(webSocketEcho)
  return app
}

// @ts-check
import Fastify from 'fastify'
import {
  EXTRA_ROUTES, HELLO_TEXT, VALIDATION_RULES, errorOrOk, extraRouteBody, fibonacciResult, helloMessage,
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
 * Builds the Fastify app with the whole dyno contract. Logging is off (fastify's default).
 * @param {{ data?: import('@dyno/scenarios/data').DataSources }} [options] the data sources of the database scenarios
 */
export function createApp ({ data = NO_DATA_SOURCES } = {}) {
  const app = Fastify({ logger: false })
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
  return app
}

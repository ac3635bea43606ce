// @ts-check
import Hapi from '@hapi/hapi'
import Joi from 'joi'
import {
  EXTRA_ROUTES, HELLO_TEXT, VALIDATION_RULES, errorOrOk, extraRouteBody, fibonacciResult, helloMessage,
  routeParams, validationResult
} from '@dyno/scenarios/work'
import { NO_DATA_SOURCES } from '@dyno/scenarios/data'

/** The validation scenario's rules as a joi schema, checked by hapi's `validate.query` (VALIDATION_RULES.numberType is 'integer'). */
const validationQuery = Joi.object({
  number: Joi.number().integer().required(),
  text: Joi.string().min(VALIDATION_RULES.textMinLength).required()
})

/** hapi spells path parameters `{name}`; the shared route table uses `:name`. */
const toHapiPath = (/** @type {string} */ path) => path.replace(/:([A-Za-z_]\w*)/g, '{$1}')

/** @typedef {Record<string, string>} PathParams hapi's router hands path parameters over as strings */
/** @param {import('@hapi/hapi').Request} request */
const pathParams = (request) => /** @type {PathParams} */ (request.params)

/**
 * Builds the hapi server with the whole dyno contract. It is not started yet.
 * `debug: false` is the "logging off" rule: hapi's default prints every 500 with its stack to stderr.
 * @param {{ port?: number, host?: string, data?: import('@dyno/scenarios/data').DataSources,
 *   server?: Pick<import('@hapi/hapi').ServerOptions, 'tls' | 'listener'> }} [options]
 *   data: the data sources of the database scenarios; server: hapi's options of the server for a protocol other than HTTP/1.1 in
 *   cleartext (`tls`, `listener`)
 */
export function createApp ({ port = 0, host = '127.0.0.1', data = NO_DATA_SOURCES, server: serverOptions = {} } = {}) {
  const server = Hapi.server({ port, host, debug: false, ...serverOptions })
  server.route([
    { method: 'GET', path: '/plaintext', handler: (request, h) => h.response(HELLO_TEXT).type('text/plain') },
    { method: 'GET', path: '/json', handler: () => helloMessage() },
    {
      method: 'GET',
      path: '/users/{userId}/posts/{postId}',
      handler: (request) => routeParams(pathParams(request).userId, pathParams(request).postId)
    },
    { method: 'POST', path: '/echo', handler: (request) => /** @type {object} */ (request.payload) },
    { method: 'GET', path: '/fibonacci', handler: () => fibonacciResult() },
    { method: 'GET', path: '/error/{flag}', handler: (request) => errorOrOk(pathParams(request).flag) },
    {
      method: 'GET',
      path: '/validation',
      options: { validate: { query: validationQuery } },
      handler: (request) => {
        const { number, text } = /** @type {{ number: number, text: string }} */ (request.query)
        return validationResult(number, text)
      }
    },
    { method: 'GET', path: '/redis', handler: () => data.redisMessage() },
    { method: 'GET', path: '/sqlite', handler: () => data.sqliteWorld() },
    { method: 'GET', path: '/sqlite-async', handler: () => data.sqliteAsyncWorld() },
    { method: 'GET', path: '/postgres', handler: () => data.postgresWorld() },
    { method: 'GET', path: '/postgres-js', handler: () => data.postgresJsWorld() },
    ...EXTRA_ROUTES.map((route) => /** @type {import('@hapi/hapi').ServerRoute} */ ({
      method: route.method,
      path: toHapiPath(route.path),
      handler: (request) => extraRouteBody(route.path, pathParams(request))
    }))
  ])
  return server
}

// @ts-check
import net from 'node:net'
import tls from 'node:tls'
import { parse as parseQuery } from 'node:querystring'
import {
  EXTRA_ROUTES, HELLO_TEXT, errorOrOk, extraRouteBody, fibonacciResult, helloMessage, routeParams,
  validateQuery, validationResult
} from '@dyno/scenarios/work'
import { NO_DATA_SOURCES } from '@dyno/scenarios/data'
import { Connection } from './connection.js'
import { json, statusReply, text } from './reply.js'
import { createRouter } from './router.js'

/**
 * Builds the raw node:net server with the whole dyno contract: its own HTTP/1.1 parsing and
 * serialization (see connection.js), no HTTP library. It is not listening yet.
 * @param {{ data?: import('@dyno/scenarios/data').DataSources, tls?: import('node:tls').TlsOptions | null }} [options] the data sources
 *   of the database scenarios; `tls`: serve over TLS, with node:tls's server (node:net's, with TLS) and these options
 */
export function createApp ({ data = NO_DATA_SOURCES, tls: tlsOptions = null } = {}) {
  const router = createRouter()
  router.add('GET', '/plaintext', () => text(200, HELLO_TEXT))
  router.add('GET', '/json', () => json(200, helloMessage()))
  router.add('GET', '/users/:userId/posts/:postId', (request, params) =>
    json(200, routeParams(params.userId, params.postId)))
  router.add('POST', '/echo', (request) => {
    let parsed
    try {
      parsed = JSON.parse(request.body)
    } catch {
      return statusReply(400)
    }
    return json(200, parsed)
  })
  router.add('GET', '/fibonacci', () => json(200, fibonacciResult()))
  router.add('GET', '/error/:flag', (request, params) => json(200, errorOrOk(params.flag)))
  router.add('GET', '/validation', (request) => {
    const checked = validateQuery(parseQuery(request.query))
    if (!checked.ok) return json(400, { error: checked.message })
    return json(200, validationResult(checked.value.number, checked.value.text))
  })
  router.add('GET', '/redis', async () => json(200, await data.redisMessage()))
  router.add('GET', '/sqlite', () => json(200, data.sqliteWorld()))
  router.add('GET', '/sqlite-async', async () => json(200, await data.sqliteAsyncWorld()))
  router.add('GET', '/postgres', async () => json(200, await data.postgresWorld()))
  router.add('GET', '/postgres-js', async () => json(200, await data.postgresJsWorld()))
  for (const route of EXTRA_ROUTES) {
    router.add(route.method, route.path, (request, params) => json(200, extraRouteBody(route.path, params)))
  }

  const onConnection = (/** @type {net.Socket} */ socket) => new Connection(socket, router)
  return tlsOptions ? tls.createServer({ ...tlsOptions, noDelay: true }, onConnection) : net.createServer({ noDelay: true }, onConnection)
}

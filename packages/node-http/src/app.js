// @ts-check
import http from 'node:http'
import { WebSocketServer } from 'ws'
import {
  EXTRA_ROUTES, HELLO_TEXT, WEBSOCKET_PATH, errorOrOk, extraRouteBody, fibonacciResult, helloMessage, routeParams,
  validateQuery, validationResult
} from '@dyno/scenarios/work'
import { NO_DATA_SOURCES } from '@dyno/scenarios/data'
import { createRouter } from './router.js'

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {unknown} value
 */
function sendJson (res, status, value) {
  const body = JSON.stringify(value)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
  res.end(body)
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {string} text
 */
function sendText (res, status, text) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

/** @param {import('node:http').IncomingMessage} req @returns {Promise<string>} */
async function readBody (req) {
  const chunks = []
  for await (const chunk of req) chunks.push(chunk)
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * The request listener with every HTTP route of the contract: what node:http, node:https and node:http2's compatibility API call.
 * @param {{ data?: import('@dyno/scenarios/data').DataSources }} [options] the data sources of the database scenarios
 * @returns {(req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>}
 */
export function createHandler ({ data = NO_DATA_SOURCES } = {}) {
  const router = createRouter()
  router.add('GET', '/plaintext', (req, res) => sendText(res, 200, HELLO_TEXT))
  router.add('GET', '/json', (req, res) => sendJson(res, 200, helloMessage()))
  router.add('GET', '/users/:userId/posts/:postId', (req, res, params) =>
    sendJson(res, 200, routeParams(params.userId, params.postId)))
  router.add('POST', '/echo', async (req, res) => {
    let parsed
    try {
      parsed = JSON.parse(await readBody(req))
    } catch {
      return sendText(res, 400, 'Bad Request')
    }
    sendJson(res, 200, parsed)
  })
  router.add('GET', '/fibonacci', (req, res) => sendJson(res, 200, fibonacciResult()))
  router.add('GET', '/error/:flag', (req, res, params) => sendJson(res, 200, errorOrOk(params.flag)))
  router.add('GET', '/validation', (req, res, params, queryString) => {
    const query = new URLSearchParams(queryString)
    const checked = validateQuery({ number: query.get('number') ?? undefined, text: query.get('text') ?? undefined })
    if (!checked.ok) return sendJson(res, 400, { error: checked.message })
    sendJson(res, 200, validationResult(checked.value.number, checked.value.text))
  })
  router.add('GET', '/redis', async (req, res) => sendJson(res, 200, await data.redisMessage()))
  router.add('GET', '/sqlite', (req, res) => sendJson(res, 200, data.sqliteWorld()))
  router.add('GET', '/sqlite-async', async (req, res) => sendJson(res, 200, await data.sqliteAsyncWorld()))
  router.add('GET', '/postgres', async (req, res) => sendJson(res, 200, await data.postgresWorld()))
  router.add('GET', '/postgres-js', async (req, res) => sendJson(res, 200, await data.postgresJsWorld()))
  for (const route of EXTRA_ROUTES) {
    router.add(route.method, route.path, (req, res, params) => sendJson(res, 200, extraRouteBody(route.path, params)))
  }

  return async (req, res) => {
    const url = req.url ?? '/'
    const queryStart = url.indexOf('?')
    const path = queryStart === -1 ? url : url.slice(0, queryStart)
    const found = router.find(req.method ?? 'GET', path)
    if (!found) return sendText(res, 404, 'Not Found')
    try {
      await found.handler(req, res, found.params, queryStart === -1 ? '' : url.slice(queryStart + 1))
    } catch {
      // node:http has no error handling of its own; this is the baseline's equivalent.
      if (!res.headersSent) sendText(res, 500, 'Internal Server Error')
      else res.destroy()
    }
  }
}

/**
 * Builds the plain node:http server with the whole dyno contract, WebSocket echo at /ws included (`ws` on the server's upgrades). It is
 * not listening yet.
 * @param {{ data?: import('@dyno/scenarios/data').DataSources }} [options] the data sources of the database scenarios
 */
export function createApp ({ data = NO_DATA_SOURCES } = {}) {
  const server = http.createServer(createHandler({ data }))
  // ws answers only the upgrades of its path (any other is refused with 400); a GET without an upgrade reaches the router, which has
  // no /ws route: 404.
  const sockets = new WebSocketServer({ server, path: WEBSOCKET_PATH })
  sockets.on('connection', (socket) => {
    socket.on('message', (message, isBinary) => socket.send(message, { binary: isBinary }))
  })
  return server
}

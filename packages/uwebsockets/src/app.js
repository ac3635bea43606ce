// @ts-check
import uWS from 'uWebSockets.js'
import {
  EXTRA_ROUTES, HELLO_TEXT, WEBSOCKET_PATH, errorOrOk, extraRouteBody, fibonacciResult, helloMessage, routeParams,
  validateQuery, validationResult
} from '@dyno/scenarios/work'
import { NO_DATA_SOURCES } from '@dyno/scenarios/data'

/** @typedef {import('uWebSockets.js').HttpResponse} HttpResponse */
/** @typedef {import('uWebSockets.js').HttpRequest} HttpRequest */

const TEXT = 'text/plain; charset=utf-8'
const JSON_TYPE = 'application/json'

/**
 * Writes a whole response; uWS adds Content-Length on `end`.
 * @param {HttpResponse} res @param {string} status @param {string} type @param {string} body
 */
function send (res, status, type, body) {
  res.writeStatus(status).writeHeader('content-type', type).end(body)
}

/** @param {HttpResponse} res @param {unknown} value */
const sendJson = (res, value) => send(res, '200 OK', JSON_TYPE, JSON.stringify(value))

/**
 * uWS has no error handling of its own (a throw in a handler ends the process), so every handler is
 * registered through this try/catch, the equivalent of the node:http baseline's.
 * @param {(res: HttpResponse, req: HttpRequest) => void} handler
 * @returns {(res: HttpResponse, req: HttpRequest) => void}
 */
function guarded (handler) {
  return (res, req) => {
    try {
      handler(res, req)
    } catch {
      send(res, '500 Internal Server Error', TEXT, 'Internal Server Error')
    }
  }
}

/**
 * The asynchronous form of `guarded`, for a route that answers the JSON a promise resolves to. uWS requires
 * `onAborted` before the handler returns without answering, and a response written after an `await` (outside
 * uWS's own callback) must be corked; a rejection answers 500, as `guarded`'s catch does.
 * @param {() => Promise<unknown>} work
 * @returns {(res: HttpResponse) => Promise<void>}
 */
function guardedAsync (work) {
  return async (res) => {
    res.onAborted(() => { res.aborted = true })
    try {
      const value = await work()
      if (!res.aborted) res.cork(() => sendJson(res, value))
    } catch {
      if (!res.aborted) res.cork(() => send(res, '500 Internal Server Error', TEXT, 'Internal Server Error'))
    }
  }
}

/**
 * Reads the whole body; uWS requires onAborted before answering asynchronously.
 * @param {HttpResponse} res
 * @param {(body: Buffer) => void} done
 */
function readBody (res, done) {
  /** @type {Buffer[]} */
  const chunks = []
  res.onAborted(() => { res.aborted = true })
  res.onData((chunk, isLast) => {
    // uWS reuses the chunk's memory after this callback returns: copy it.
    chunks.push(Buffer.from(chunk.slice(0)))
    if (isLast) done(Buffer.concat(chunks))
  })
}

/** @param {HttpResponse} res */
function echo (res) {
  readBody(res, (body) => {
    if (res.aborted) return
    let parsed
    try {
      parsed = JSON.parse(body.toString('utf8'))
    } catch {
      res.cork(() => send(res, '400 Bad Request', TEXT, 'Bad Request'))
      return
    }
    res.cork(() => sendJson(res, parsed))
  })
}

/**
 * The parameter names of a `:name` pattern (uWS uses the same syntax), by index: uWS reads parameters by position.
 * @param {string} path
 */
function parameterNames (path) {
  return [...path.matchAll(/:([A-Za-z_]\w*)/g)].map((match) => match[1])
}

/**
 * Builds the uWS App with the whole dyno contract, WebSocket echo at /ws included (uWS's own `ws()`). It is not listening yet.
 * @param {{ data?: import('@dyno/scenarios/data').DataSources, tls?: { certFile: string, keyFile: string } | null }} [options] the data
 *   sources of the database scenarios; `tls`: the certificate's files, for uWS's SSLApp (HTTP/1.1 over TLS) instead of its App
 */
export function createApp ({ data = NO_DATA_SOURCES, tls = null } = {}) {
  const app = tls ? uWS.SSLApp({ cert_file_name: tls.certFile, key_file_name: tls.keyFile }) : uWS.App()
  app.get('/plaintext', guarded((res) => send(res, '200 OK', TEXT, HELLO_TEXT)))
  app.get('/json', guarded((res) => sendJson(res, helloMessage())))
  app.get('/users/:userId/posts/:postId', guarded((res, req) =>
    sendJson(res, routeParams(req.getParameter(0), req.getParameter(1)))))
  app.post('/echo', guarded(echo))
  app.get('/fibonacci', guarded((res) => sendJson(res, fibonacciResult())))
  app.get('/error/:flag', guarded((res, req) => sendJson(res, errorOrOk(req.getParameter(0)))))
  app.get('/validation', guarded((res, req) => {
    const checked = validateQuery({ number: req.getQuery('number'), text: req.getQuery('text') })
    if (!checked.ok) return send(res, '400 Bad Request', JSON_TYPE, JSON.stringify({ error: checked.message }))
    sendJson(res, validationResult(checked.value.number, checked.value.text))
  }))
  app.get('/redis', guardedAsync(() => data.redisMessage()))
  app.get('/sqlite', guarded((res) => sendJson(res, data.sqliteWorld())))
  app.get('/sqlite-async', guardedAsync(() => data.sqliteAsyncWorld()))
  app.get('/postgres', guardedAsync(() => data.postgresWorld()))
  app.get('/postgres-js', guardedAsync(() => data.postgresJsWorld()))
  for (const route of EXTRA_ROUTES) {
    const names = parameterNames(route.path)
    app.get(route.path, guarded((res, req) => {
      /** @type {Record<string, string>} */
      const params = {}
      names.forEach((name, index) => { params[name] = req.getParameter(index) })
      sendJson(res, extraRouteBody(route.path, params))
    }))
  }
  // Every message back as it came; uWS answers the client's close with its code. A GET without an upgrade is not this route's (uWS
  // yields it), so the catch-all below answers it 404.
  if (!tls) app.ws(WEBSOCKET_PATH, { message: (socket, message, isBinary) => { socket.send(message, isBinary) } })
  // uWS closes the connection on an unmatched request without answering: the catch-all route is its 404.
  app.any('/*', (res) => send(res, '404 Not Found', TEXT, 'Not Found'))
  return app
}

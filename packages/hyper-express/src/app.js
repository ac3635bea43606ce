// @ts-check
import HyperExpress from 'hyper-express'
import {
  EXTRA_ROUTES, HELLO_TEXT, WEBSOCKET_PATH, errorOrOk, extraRouteBody, fibonacciResult, helloMessage, routeParams,
  validateQuery, validationResult
} from '@dyno/scenarios/work'
import { NO_DATA_SOURCES } from '@dyno/scenarios/data'

/**
 * Builds the HyperExpress server with the whole dyno contract. It is not listening yet.
 * HyperExpress has no validator, so validation uses the shared check; a thrown error goes to its
 * default error handler (500), an unmatched path to its default not-found handler (404); so does a
 * rejected promise of an async handler.
 * WebSocket echo at /ws through its own `ws()` route, on the HTTP/1.1 server.
 * @param {{ data?: import('@dyno/scenarios/data').DataSources, tls?: { certFile: string, keyFile: string } | null }} [options] the data
 *   sources of the database scenarios; `tls`: the certificate's files, for HyperExpress's SSL server (HTTP/1.1 over TLS)
 */
export function createApp ({ data = NO_DATA_SOURCES, tls = null } = {}) {
  const app = tls ? new HyperExpress.Server({ cert_file_name: tls.certFile, key_file_name: tls.keyFile }) : new HyperExpress.Server()
  app.get('/plaintext', (request, response) => { response.type('text').send(HELLO_TEXT) })
  app.get('/json', (request, response) => { response.json(helloMessage()) })
  app.get('/users/:userId/posts/:postId', (request, response) => {
    const { userId, postId } = request.path_parameters
    response.json(routeParams(userId, postId))
  })
  app.post('/echo', async (request, response) => {
    let body
    try {
      // json(null): throw on malformed JSON instead of resolving to the default value `{}`.
      body = await request.json(null)
    } catch {
      response.status(400).send('Bad Request')
      return
    }
    response.json(body)
  })
  app.get('/fibonacci', (request, response) => { response.json(fibonacciResult()) })
  app.get('/error/:flag', (request, response) => { response.json(errorOrOk(request.path_parameters.flag)) })
  app.get('/validation', (request, response) => {
    const checked = validateQuery(request.query_parameters)
    if (!checked.ok) {
      response.status(400).json({ error: checked.message })
      return
    }
    response.json(validationResult(checked.value.number, checked.value.text))
  })
  app.get('/redis', async (request, response) => { response.json(await data.redisMessage()) })
  app.get('/sqlite', (request, response) => { response.json(data.sqliteWorld()) })
  app.get('/sqlite-async', async (request, response) => { response.json(await data.sqliteAsyncWorld()) })
  app.get('/postgres', async (request, response) => { response.json(await data.postgresWorld()) })
  app.get('/postgres-js', async (request, response) => { response.json(await data.postgresJsWorld()) })
  for (const route of EXTRA_ROUTES) {
    app.get(route.path, (request, response) => { response.json(extraRouteBody(route.path, request.path_parameters)) })
  }
  if (!tls) {
    // message_type 'Buffer' (its default, 'String', decodes every message as UTF-8, which would alter a binary one): each message goes
    // back as it came, text as text. A GET without an upgrade is not this route's: HyperExpress's not-found handler answers it 404.
    app.ws(WEBSOCKET_PATH, { message_type: 'Buffer' }, (socket) => {
      socket.on('message', (message, isBinary) => { socket.send(message, isBinary) })
    })
  }
  return app
}

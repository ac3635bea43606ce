// @ts-check
/// <reference path="./deno.d.ts" />
/* global Deno */
import {
  EXTRA_ROUTES, HELLO_TEXT, WEBSOCKET_PATH, errorOrOk, extraRouteBody, fibonacciResult, helloMessage, routeParams,
  validateQuery, validationResult
} from '@dyno/scenarios/work'
import { NO_DATA_SOURCES } from '@dyno/scenarios/data'
import { createRouter } from './router.js'

/**
 * WebSocket echo, Deno's own: `Deno.upgradeWebSocket` takes the request; each message goes back as it came (a text message is a
 * string; `binaryType` 'arraybuffer' hands a binary one as bytes, sent back at once, rather than as a Blob read later). Deno answers
 * the client's close with its code. A GET without an upgrade is answered 426 Upgrade Required.
 * @param {Request} request
 */
function webSocketEcho (request) {
  if (request.headers.get('upgrade')?.toLowerCase() !== 'websocket') return new Response('Upgrade Required', { status: 426 })
  const { socket, response } = Deno.upgradeWebSocket(request)
  socket.binaryType = 'arraybuffer'
  socket.onmessage = (event) => socket.send(event.data)
  return response
}

/**
 * The Deno.serve handler with the whole dyno contract. Not listening yet:
 * `Deno.serve({ port, hostname, onListen }, createApp())` starts it. A thrown error (or rejection) goes to
 * Deno.serve's default `onError`, which answers 500.
 * @param {{ data?: import('@dyno/scenarios/data').DataSources }} [options] the data sources of the database scenarios
 * @returns {(request: Request) => Response | Promise<Response>}
 */
export function createApp ({ data = NO_DATA_SOURCES } = {}) {
  const router = createRouter()
  router.add('GET', '/plaintext', () => new Response(HELLO_TEXT))
  router.add('GET', '/json', () => Response.json(helloMessage()))
  router.add('GET', '/users/:userId/posts/:postId', (request, params) => Response.json(routeParams(params.userId, params.postId)))
  router.add('POST', '/echo', async (request) => {
    let parsed
    try {
      parsed = await request.json()
    } catch {
      return new Response('Bad Request', { status: 400 })
    }
    return Response.json(parsed)
  })
  router.add('GET', '/fibonacci', () => Response.json(fibonacciResult()))
  router.add('GET', '/error/:flag', (request, params) => Response.json(errorOrOk(params.flag)))
  router.add('GET', '/validation', (request, params, url) => {
    const query = url.searchParams
    const checked = validateQuery({ number: query.get('number') ?? undefined, text: query.get('text') ?? undefined })
    if (!checked.ok) return Response.json({ error: checked.message }, { status: 400 })
    return Response.json(validationResult(checked.value.number, checked.value.text))
  })
  router.add('GET', '/redis', async () => Response.json(await data.redisMessage()))
  router.add('GET', '/sqlite', () => Response.json(data.sqliteWorld()))
  router.add('GET', '/sqlite-async', async () => Response.json(await data.sqliteAsyncWorld()))
  router.add('GET', '/postgres', async () => Response.json(await data.postgresWorld()))
  router.add('GET', '/postgres-js', async () => Response.json(await data.postgresJsWorld()))
  router.add('GET', WEBSOCKET_PATH, webSocketEcho)
  for (const route of EXTRA_ROUTES) {
    router.add(route.method, route.path, (request, params) => Response.json(extraRouteBody(route.path, params)))
  }

  return (request) => {
    const url = new URL(request.url)
    const found = router.find(request.method, url.pathname)
    if (!found) return new Response('Not Found', { status: 404 })
    return found.handler(request, found.params, url)
  }
}

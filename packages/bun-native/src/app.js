// @ts-check
/// <reference path="./bun.d.ts" />
import {
  EXTRA_ROUTES, HELLO_TEXT, WEBSOCKET_PATH, errorOrOk, extraRouteBody, fibonacciResult, helloMessage, routeParams,
  validateQuery, validationResult
} from '@dyno/scenarios/work'
import { NO_DATA_SOURCES } from '@dyno/scenarios/data'

/**
 * The Bun.serve options with the whole dyno contract on Bun's built-in router (`routes`). Not listening
 * yet: `Bun.serve({ ...createApp(), port, hostname })` starts it. No `fetch` fallback and no `error`
 * callback: Bun's defaults answer an unknown path 404 and a thrown error 500. Each WebSocket message goes back as it came: Bun hands
 * a text message as a string, a binary one as bytes, and `send` sends them so; Bun answers the client's close with its code.
 * @param {{ data?: import('@dyno/scenarios/data').DataSources }} [options] the data sources of the database scenarios
 * @returns {import('bun').ServeOptions}
 */
export function createApp ({ data = NO_DATA_SOURCES } = {}) {
  /** @type {Record<string, import('bun').RouteMethods>} */
  const routes = {
    '/plaintext': { GET: () => new Response(HELLO_TEXT) },
    '/json': { GET: () => Response.json(helloMessage()) },
    '/users/:userId/posts/:postId': { GET: (req) => Response.json(routeParams(req.params.userId, req.params.postId)) },
    '/echo': {
      POST: async (req) => {
        let parsed
        try {
          parsed = await req.json()
        } catch {
          return new Response('Bad Request', { status: 400 })
        }
        return Response.json(parsed)
      }
    },
    '/fibonacci': { GET: () => Response.json(fibonacciResult()) },
    '/error/:flag': { GET: (req) => Response.json(errorOrOk(req.params.flag)) },
    '/validation': {
      GET: (req) => {
        const query = new URL(req.url).searchParams
        const checked = validateQuery({ number: query.get('number') ?? undefined, text: query.get('text') ?? undefined })
        if (!checked.ok) return Response.json({ error: checked.message }, { status: 400 })
        return Response.json(validationResult(checked.value.number, checked.value.text))
      }
    },
    '/redis': { GET: async () => Response.json(await data.redisMessage()) },
    '/sqlite': { GET: () => Response.json(data.sqliteWorld()) },
    '/sqlite-async': { GET: async () => Response.json(await data.sqliteAsyncWorld()) },
    '/postgres': { GET: async () => Response.json(await data.postgresWorld()) },
    '/postgres-js': { GET: async () => Response.json(await data.postgresJsWorld()) },
    // WebSocket echo, Bun's own: the route upgrades (the server's `websocket` handlers below take the connection), and a GET without
    // an upgrade is answered 426 Upgrade Required.
    [WEBSOCKET_PATH]: { GET: (req, server) => server.upgrade(req) ? undefined : new Response('Upgrade Required', { status: 426 }) }
  }
  for (const route of EXTRA_ROUTES) {
    routes[route.path] = {
      [route.method]: (/** @type {import('bun').BunRequest} */ req) => Response.json(extraRouteBody(route.path, req.params))
    }
  }
  /** @type {import('bun').WebSocketHandler} */
  const websocket = { message: (socket, message) => { socket.send(message) } }
  return { routes, websocket }
}

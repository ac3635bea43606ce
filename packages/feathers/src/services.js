// @ts-check
import {
  EXTRA_ROUTES, errorOrOk, extraRouteBody, fibonacciResult, helloMessage, routeParams, validationResult
} from '@dyno/scenarios/work'

/**
 * The contract routes that fit Feathers' service model, as plain service objects: `find` answers
 * `GET /<path>`, `get` answers `GET /<path>/:id`, `create` answers `POST /<path>`.
 * @typedef {import('@feathersjs/feathers').Params<{ number?: number, text?: string }>} Params
 */

export const jsonService = {
  async find () { return helloMessage() }
}

export const fibonacciService = {
  async find () { return fibonacciResult() }
}

/** `users/:userId/posts`: the post id is the service id, the user id a route parameter. */
export const userPostsService = {
  /** @param {import('@feathersjs/feathers').Id} id @param {Params} params */
  async get (id, params) { return routeParams(String(params.route?.userId), String(id)) }
}

export const echoService = {
  /** @param {unknown} data */
  async create (data) { return data }
}

export const errorService = {
  /** @param {import('@feathersjs/feathers').Id} id */
  async get (id) { return errorOrOk(String(id)) }
}

/** The query arrives already checked and coerced by the `validateQuery` hook. */
export const validationService = {
  /** @param {Params} params */
  async find (params) {
    const { number, text } = /** @type {{ number: number, text: string }} */ (params.query)
    return validationResult(number, text)
  }
}

/**
 * The database scenarios, one service per route, each a `find` answering exactly what its data
 * source returns; a rejection (or the synchronous SQLite query's throw) reaches `errorHandler()`.
 * @param {import('@dyno/scenarios/data').DataSources} data
 * @returns {Map<string, { find: () => Promise<unknown> }>} service path → service
 */
export function dataServices (data) {
  return new Map([
    ['redis', { async find () { return data.redisMessage() } }],
    ['sqlite', { async find () { return data.sqliteWorld() } }],
    ['sqlite-async', { async find () { return data.sqliteAsyncWorld() } }],
    ['postgres', { async find () { return data.postgresWorld() } }],
    ['postgres-js', { async find () { return data.postgresJsWorld() } }]
  ])
}

/**
 * Groups EXTRA_ROUTES into Feathers services: a pattern ending in `/:name` is the `get` of the
 * service one segment up (its id is `name`), any other pattern the `find` of its own service.
 * @returns {Map<string, object>} service path → service
 */
export function extraRouteServices () {
  /**
   * @type {Map<string, { find?: (params: Params) => Promise<unknown>,
   *   get?: (id: import('@feathersjs/feathers').Id, params: Params) => Promise<unknown> }>}
   */
  const services = new Map()
  for (const route of EXTRA_ROUTES) {
    const idMatch = /\/:([A-Za-z_]\w*)$/.exec(route.path)
    const servicePath = idMatch ? route.path.slice(0, idMatch.index) : route.path
    const service = services.get(servicePath) ?? {}
    if (idMatch) {
      const idName = idMatch[1]
      service.get = async (id, params) => extraRouteBody(route.path, { ...params.route, [idName]: String(id) })
    } else {
      service.find = async (params) => extraRouteBody(route.path, { ...params.route })
    }
    services.set(servicePath, service)
  }
  return services
}

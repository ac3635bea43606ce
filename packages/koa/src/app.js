// @ts-check
import Koa from 'koa'
import Router from '@koa/router'
import { bodyParser } from '@koa/bodyparser'
import {
  EXTRA_ROUTES, HELLO_TEXT, errorOrOk, extraRouteBody, fibonacciResult, helloMessage, routeParams,
  validateQuery, validationResult
} from '@dyno/scenarios/work'
import { NO_DATA_SOURCES } from '@dyno/scenarios/data'

/**
 * Builds the Koa app with the whole dyno contract; Koa has no validator, so validation uses the shared check.
 * `app.silent = true` is the "logging off" rule: Koa's default `app.onerror` prints every 500 with its stack to stderr.
 * @param {{ data?: import('@dyno/scenarios/data').DataSources }} [options] the data sources of the database scenarios
 */
export function createApp ({ data = NO_DATA_SOURCES } = {}) {
  const app = new Koa()
  app.silent = true
  const router = new Router()
  router.get('/plaintext', (ctx) => {
    ctx.type = 'text/plain'
    ctx.body = HELLO_TEXT
  })
  router.get('/json', (ctx) => { ctx.body = helloMessage() })
  router.get('/users/:userId/posts/:postId', (ctx) => { ctx.body = routeParams(ctx.params.userId, ctx.params.postId) })
  router.post('/echo', bodyParser(), (ctx) => { ctx.body = ctx.request.body })
  router.get('/fibonacci', (ctx) => { ctx.body = fibonacciResult() })
  router.get('/error/:flag', (ctx) => { ctx.body = errorOrOk(ctx.params.flag) })
  router.get('/validation', (ctx) => {
    const checked = validateQuery(ctx.query)
    if (!checked.ok) return ctx.throw(400, checked.message)
    ctx.body = validationResult(checked.value.number, checked.value.text)
  })
  router.get('/redis', async (ctx) => { ctx.body = await data.redisMessage() })
  router.get('/sqlite', (ctx) => { ctx.body = data.sqliteWorld() })
  router.get('/sqlite-async', async (ctx) => { ctx.body = await data.sqliteAsyncWorld() })
  router.get('/postgres', async (ctx) => { ctx.body = await data.postgresWorld() })
  router.get('/postgres-js', async (ctx) => { ctx.body = await data.postgresJsWorld() })
  for (const route of EXTRA_ROUTES) {
    router.get(route.path, (ctx) => { ctx.body = extraRouteBody(route.path, ctx.params) })
  }
  app.use(router.routes()).use(router.allowedMethods())
  return app
}

// @ts-check
import app from '@adonisjs/core/services/app'
import router from '@adonisjs/core/services/router'
import {
  EXTRA_ROUTES, HELLO_TEXT, errorOrOk, extraRouteBody, fibonacciResult, helloMessage, routeParams, validationResult
} from '@dyno/scenarios/work'
import { validationQueryValidator } from '#validators/validation'
import { DATA_SOURCES_BINDING } from '../src/app.js'

/**
 * The data sources of the database scenarios: the one instance the start file opened, bound in the container.
 * @type {import('@dyno/scenarios/data').DataSources}
 */
const data = await app.container.make(DATA_SOURCES_BINDING)

router.get('/plaintext', ({ response }) => { response.type('text/plain').send(HELLO_TEXT) })
router.get('/json', () => helloMessage())
router.get('/users/:userId/posts/:postId', ({ params }) => routeParams(params.userId, params.postId))
router.post('/echo', ({ request }) => request.body())
router.get('/fibonacci', () => fibonacciResult())
router.get('/error/:flag', ({ params }) => errorOrOk(params.flag))
router.get('/validation', async ({ request }) => {
  const { number, text } = await request.validateUsing(validationQueryValidator)
  return validationResult(number, text)
})
// A rejection (or sqliteWorld's throw) reaches the exception handler (500), as on the error route.
router.get('/redis', () => data.redisMessage())
router.get('/sqlite', () => data.sqliteWorld())
router.get('/sqlite-async', () => data.sqliteAsyncWorld())
router.get('/postgres', () => data.postgresWorld())
router.get('/postgres-js', () => data.postgresJsWorld())
for (const route of EXTRA_ROUTES) {
  router.get(route.path, ({ params }) => extraRouteBody(route.path, params))
}

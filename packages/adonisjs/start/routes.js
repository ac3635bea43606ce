// @ts-check
import router from '@adonisjs/core/services/router'
import {
  EXTRA_ROUTES, HELLO_TEXT, errorOrOk, extraRouteBody, fibonacciResult, helloMessage, routeParams, validationResult
} from '@dyno/scenarios/work'
import { validationQueryValidator } from '#validators/validation'

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
for (const route of EXTRA_ROUTES) {
  router.get(route.path, ({ params }) => extraRouteBody(route.path, params))
}

// @ts-check
import { routeParams } from '../work/route-params.js'
import { defineScenario } from './define-scenario.js'

export const PARAMS_USER_ID = 'u-4821'
export const PARAMS_POST_ID = '1337'

export const params = defineScenario({
  name: 'params',
  summary: 'Two path parameters extracted by the router and echoed as JSON strings.',
  countWeight: 1,
  request: { method: 'GET', path: `/users/${PARAMS_USER_ID}/posts/${PARAMS_POST_ID}` },
  expect: { status: 200, contentType: 'application/json', body: { json: routeParams(PARAMS_USER_ID, PARAMS_POST_ID) } },
  probes: [
    {
      name: 'other parameter values are echoed, not hard-coded',
      request: { method: 'GET', path: '/users/7/posts/abc-9' },
      expect: { status: 200, contentType: 'application/json', body: { json: routeParams('7', 'abc-9') } }
    },
    {
      name: 'an extra static route answers',
      request: { method: 'GET', path: '/api/v1/health' },
      expect: { status: 200, contentType: 'application/json', body: { json: { route: '/api/v1/health', params: {} } } }
    },
    {
      name: 'an extra parameterised route answers',
      request: { method: 'GET', path: '/api/v1/products/981/reviews/77' },
      expect: {
        status: 200,
        contentType: 'application/json',
        body: { json: { route: '/api/v1/products/:id/reviews/:reviewId', params: { id: '981', reviewId: '77' } } }
      }
    }
  ]
})

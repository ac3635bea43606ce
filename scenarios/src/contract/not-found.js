// @ts-check
import { defineScenario } from './define-scenario.js'

export const notFound = defineScenario({
  name: 'not-found',
  summary: 'A path no route matches: the router miss and the default 404.',
  countWeight: 1,
  request: { method: 'GET', path: '/does/not/exist' },
  expect: { status: 404, contentType: null, body: null, noStackTrace: true },
  probes: [
    {
      name: 'a near miss of a real route is 404 too',
      request: { method: 'GET', path: '/jsonx' },
      expect: { status: 404, contentType: null, body: null }
    }
  ]
})

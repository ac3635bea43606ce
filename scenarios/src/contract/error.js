// @ts-check
import { defineScenario } from './define-scenario.js'

export const error = defineScenario({
  name: 'error',
  summary: "The handler throws; the framework's own error handling answers 500 without a stack trace.",
  countWeight: 1.14,
  request: { method: 'GET', path: '/error/1' },
  expect: { status: 500, contentType: null, body: null, noStackTrace: true },
  probes: [
    {
      name: 'flag 0 answers 200 {"ok":true}',
      request: { method: 'GET', path: '/error/0' },
      expect: { status: 200, contentType: 'application/json', body: { json: { ok: true } } }
    },
    {
      name: 'a second thrown error is answered 500 too',
      request: { method: 'GET', path: '/error/1' },
      expect: { status: 500, contentType: null, body: null, noStackTrace: true }
    },
    {
      name: 'the process stays up after thrown errors',
      request: { method: 'GET', path: '/error/0' },
      expect: { status: 200, contentType: 'application/json', body: { json: { ok: true } } }
    }
  ]
})

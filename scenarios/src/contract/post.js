// @ts-check
import { readFileSync } from 'node:fs'
import { defineScenario } from './define-scenario.js'

/** The ~1 KB JSON document the post scenario sends (compact, as a client would). */
export const ECHO_BODY = JSON.parse(readFileSync(new URL('../../fixtures/echo-body.json', import.meta.url), 'utf8'))
const ECHO_BODY_TEXT = JSON.stringify(ECHO_BODY)
const JSON_HEADERS = { 'content-type': 'application/json' }

export const post = defineScenario({
  name: 'post',
  summary: 'A ~1 KB JSON body parsed by the framework and serialized back.',
  countWeight: 1.66,
  request: { method: 'POST', path: '/echo', headers: JSON_HEADERS, body: ECHO_BODY_TEXT },
  expect: { status: 200, contentType: 'application/json', body: { json: ECHO_BODY } },
  probes: [
    {
      name: 'malformed JSON is rejected with 400',
      request: { method: 'POST', path: '/echo', headers: JSON_HEADERS, body: '{"orderId": "ord_1", "items": [' },
      expect: { status: 400, contentType: null, body: null, noStackTrace: true }
    },
    {
      name: 'a different body is echoed, not a cached one',
      request: { method: 'POST', path: '/echo', headers: JSON_HEADERS, body: '{"probe":[1,2,3],"nested":{"ok":true}}' },
      expect: { status: 200, contentType: 'application/json', body: { json: { probe: [1, 2, 3], nested: { ok: true } } } }
    }
  ]
})

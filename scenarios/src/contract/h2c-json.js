// @ts-check
import { json } from './json.js'
import { defineScenario } from './define-scenario.js'

export const h2cJson = defineScenario({
  name: 'h2c-json',
  summary:
    'The json route over HTTP/2 in cleartext with prior knowledge: HPACK and streams without TLS; HTTP/1.1 is not served on that port.',
  protocol: 'h2c',
  // An estimate from cpu time, as tls-json's (whose comment has the figures).
  countWeight: 1,
  request: json.request,
  expect: json.expect
})

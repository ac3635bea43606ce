// @ts-check
import { json } from './json.js'
import { defineScenario } from './define-scenario.js'

export const h2Json = defineScenario({
  name: 'h2-json',
  summary: 'The json route over HTTP/2 with TLS 1.3 (ALPN h2): HPACK, streams and TLS records; HTTP/1.1 is not served on that port.',
  protocol: 'h2',
  // An estimate from cpu time, as tls-json's (whose comment has the figures).
  countWeight: 1.1,
  request: json.request,
  expect: json.expect
})

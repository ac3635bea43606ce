// @ts-check
import { json } from './json.js'
import { defineScenario } from './define-scenario.js'

export const tlsJson = defineScenario({
  name: 'tls-json',
  summary: 'The json route over HTTP/1.1 with TLS 1.3, on the certificate dyno makes for the run: what the TLS records cost.',
  protocol: 'tls',
  // An estimate, not a count: node-http's user cpu time per request (8 keep-alive connections, 20,000 requests, twice) against
  // plaintext's: tls-json 1.17, h2-json 1.05, h2c-json 0.99 (8 streams on one connection), ws-echo 0.38 per message; json 1.00.
  countWeight: 1.2,
  request: json.request,
  expect: json.expect
})

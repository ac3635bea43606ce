// @ts-check
// The requests of an instruction count are sent in the scenario's protocol, over connections kept across the sends of a count: HTTP/1.1
// over TLS and HTTP/2 (over TLS and in cleartext) trusting the run's certificate, a WebSocket echo per message. Every answer is checked as
// under load: a wrong body, a changed echo, a server whose certificate is not the one trusted, each counted, never passed as a response.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { SCENARIOS } from '@dyno/scenarios'
import { requestSender } from '../../src/measures/instructions/counts/send-requests.js'
import { makeCertificate, startHttp1Server, startHttp2Server, startWebSocketEcho } from '../support/protocol-servers.js'

/** @param {string} name */
const scenario = (name) => /** @type {import('@dyno/scenarios').Scenario} */ (SCENARIOS.find((candidate) => candidate.name === name))
const json = scenario('json')
const body = String(json.expect.body?.text)

/** @type {ReturnType<typeof makeCertificate>} */
let certificate
/** @type {ReturnType<typeof makeCertificate>} */
let other
beforeAll(() => {
  certificate = makeCertificate()
  other = makeCertificate()
})
afterAll(() => {
  certificate.remove()
  other.remove()
})

/**
 * Sends `count` requests in two sends over the same connections, closes them, and gives what was counted.
 * @param {string} name @param {number} port @param {{ caFile: string, serverName: string } | null} trust
 */
async function countOn (name, port, trust) {
  const sender = requestSender({ port, scenario: scenario(name), concurrency: 2, timeoutMs: 5000, trust })
  try {
    const first = await sender.send(10)
    const second = await sender.send(10)
    return {
      responses: first.responses + second.responses,
      mismatches: first.mismatches + second.mismatches,
      unexpectedStatus: first.unexpectedStatus + second.unexpectedStatus,
      errors: first.errors + second.errors
    }
  } finally {
    sender.close()
  }
}

it.each([
  ['tls-json', (/** @type {Buffer} */ cert, /** @type {Buffer} */ key) => startHttp1Server({ cert, key, body, wrongEvery: 4 })],
  ['h2-json', (/** @type {Buffer} */ cert, /** @type {Buffer} */ key) => startHttp2Server({ cert, key, body, wrongEvery: 4 })],
  ['h2c-json', () => startHttp2Server({ body, wrongEvery: 4 })]
])('%s: every answer counted over kept connections, every 4th wrong body a mismatch', async (name, start) => {
  const server = await start(certificate.cert, certificate.key)
  try {
    const counts = await countOn(name, server.port, { caFile: certificate.caFile, serverName: 'localhost' })
    expect(counts).toEqual({ responses: 20, mismatches: 5, unexpectedStatus: 0, errors: 0 })
    expect(server.served()).toBe(20)
    // HTTP/2: the two lanes are two sessions, kept from the first send to the second.
    if ('mostOpen' in server) expect(/** @type {() => number[]} */ (server.mostOpen)()).toHaveLength(2)
  } finally {
    await server.close()
  }
})

it('ws-echo: one message and its echo per exchange, every 5th echo changed a mismatch', async () => {
  const server = await startWebSocketEcho({ wrongEvery: 5 })
  try {
    expect(await countOn('ws-echo', server.port, null)).toEqual({ responses: 20, mismatches: 4, unexpectedStatus: 0, errors: 0 })
    expect(server.served()).toBe(20)
  } finally {
    await server.close()
  }
})

it('a server over TLS whose certificate is not the run\'s answers nothing that is counted', async () => {
  const server = await startHttp2Server({ cert: other.cert, key: other.key, body })
  try {
    expect(await countOn('h2-json', server.port, { caFile: certificate.caFile, serverName: 'localhost' }))
      .toEqual({ responses: 0, mismatches: 0, unexpectedStatus: 0, errors: 20 })
    expect(server.served()).toBe(0)
  } finally {
    await server.close()
  }
})

it('a count over TLS without a certificate to trust is refused, naming the scenario', () => {
  expect(() => requestSender({ port: 1, scenario: scenario('tls-json'), concurrency: 1, timeoutMs: 1000, trust: null }))
    .toThrowError('tls-json is counted over TLS, and the count was given no certificate to trust')
})

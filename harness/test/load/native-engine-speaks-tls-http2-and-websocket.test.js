// @ts-check
// The native engine over TLS, HTTP/2 and WebSocket, driven through its adapter against servers started here (node:https,
// node:http2 over TLS with ALPN h2 only and in cleartext, a WebSocket echo of the test's own) with a certificate made here:
// every response or echo counted and checked, wrong bodies and changed echoes counted as mismatches, what the connections
// negotiated reported, a server that negotiates less refused naming what it does speak, the h2 streams really open at once,
// each WebSocket closed with 1000, and, in a closed loop, each window's time in flight making connections × streams of its
// duration (Little's law, from the engine's own accounting).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeHistogram } from '../../src/load/latency-histogram.js'
import { nativeEngine } from '../../src/load/engines/native/native-descriptor.js'
import { engineConfig } from '../../src/load/engines/native/native-config.js'
import { startNativeLoad } from '../../src/load/engines/native/native-engine.js'
import { runEnv } from '../../src/platform/env/run-env.js'
import { planFor } from '../support/engine-under-test.js'
import { trackRuns } from '../support/leftover-processes.js'
import { missing, skipNote } from '../support/needs.js'
import { makeCertificate, startHttp1Server, startHttp2Server, startWebSocketEcho } from '../support/protocol-servers.js'
import { scenarioNamed } from '../support/run-fixture.js'
import { withServer } from '../support/with-server.js'

const runs = trackRuns()
const absent = missing('native')
const BODY = /** @type {string} */ (scenarioNamed('json').expect.body?.text)
/** A 256-byte binary message: every byte value once. */
const BINARY = Buffer.from(Array.from({ length: 256 }, (_, index) => index)).toString('base64')

/** @typedef {import('../../src/load/engines/native/native-protocols.js').NativePlan} NativePlan */
/** @typedef {import('../../src/load/engines/native/native-report.js').NativePhaseSummary} NativePhaseSummary */

/** @type {ReturnType<typeof makeCertificate>} */
let certificate

/**
 * The json scenario's plan against `port` over `protocol`: 1 s, windows of 250 ms, 4 connections.
 * @param {number} port @param {string} protocol @param {Partial<NativePlan>} [overrides]
 * @returns {NativePlan}
 */
function planOver (port, protocol, overrides = {}) {
  const plan = planFor(port, 'json', { connections: 4 })
  const scheme = ['tls', 'h2'].includes(protocol) ? 'https' : 'http'
  return {
    ...plan,
    url: plan.url
      .replace(/^http:\/\/127\.0\.0\.1:\d+/, `${scheme}://127.0.0.1:${port}`)
      .replace('/json', protocol === 'ws' ? '/ws' : '/json'),
    protocol,
    ...(['tls', 'h2'].includes(protocol) ? { tls: { caFile: certificate.certFile, serverName: 'localhost' } } : {}),
    ...(protocol === 'ws' ? { websocket: { message: { text: 'hello, echo' } } } : {}),
    ...overrides
  }
}

/**
 * Runs the engine on `plan` (its processes marked for the leftover check) and returns the measured phase.
 * @param {NativePlan} plan @param {number} [threads]
 * @returns {Promise<NativePhaseSummary>}
 */
async function measure (plan, threads = 1) {
  const env = runEnv(runs.add(`protocols-${Math.random().toString(16).slice(2, 8)}`))
  const { phases } = await startNativeLoad(plan, { env, threads }).done
  return /** @type {NativePhaseSummary} */ (phases.measure)
}

/**
 * What every phase of the engine must hold: every response counted once, in the histogram and the windows alike, and no more
 * of them than the server sent (those still in flight at the end are not counted).
 * @param {NativePhaseSummary} summary @param {number} served @param {number} inFlight at most, at the end
 */
function expectEveryResponseCounted (summary, served, inFlight) {
  expect(summary.requests).toBeGreaterThan(100)
  expect(summary).toMatchObject({ errors: 0, timeouts: 0, stoppedEarly: false })
  expect(decodeHistogram(summary.latencyHistogramUs).totalCount).toBe(summary.requests)
  const windows = /** @type {import('../../src/load/timeseries.js').Window[]} */ (summary.timeseries)
  expect(windows.reduce((sum, window) => sum + window.requests, 0)).toBe(summary.requests)
  expect(served).toBeGreaterThanOrEqual(summary.requests)
  expect(served - summary.requests).toBeLessThanOrEqual(inFlight)
}

/**
 * The mismatches of a server that answers every n-th wrongly: one in n of what it served, less those never read back.
 * @param {NativePhaseSummary} summary @param {number} every @param {number} inFlight
 */
function expectOneInEveryWrong (summary, every, inFlight) {
  expect(summary.mismatches).toBeGreaterThanOrEqual(Math.floor(summary.requests / every) - Math.ceil(inFlight / every) - 1)
  expect(summary.mismatches).toBeLessThanOrEqual(Math.ceil(summary.requests / every) + 1)
}

describe.skipIf(absent)(`the native engine over TLS, HTTP/2 and WebSocket${skipNote(absent)}`, () => {
  beforeAll(() => { certificate = makeCertificate() })
  afterAll(() => certificate?.remove())

  it('speaks HTTP/1.1 over TLS 1.3 with the certificate made for the run: every response checked, a wrong body counted', async () => {
    await withServer(startHttp1Server({ cert: certificate.cert, key: certificate.key, body: BODY, wrongEvery: 5 }), async (server) => {
      const summary = await measure(planOver(server.port, 'tls'))
      expectEveryResponseCounted(summary, server.served(), 4)
      expect(summary.statusCounts).toEqual({ 200: summary.requests })
      expect(summary.protocolNegotiated).toBe('http/1.1 over TLSv1.3')
      expectOneInEveryWrong(summary, 5, 4)
    })
  }, 30_000)

  it('trusts a server certificate signed by the CA made for the run, and only with that CA\'s certificate given', async () => {
    const signed = makeCertificate({ signedByCa: true })
    try {
      await withServer(startHttp2Server({ cert: signed.cert, key: signed.key, body: BODY }), async (server) => {
        const summary = await measure(planOver(server.port, 'h2', { tls: { caFile: signed.caFile, serverName: 'localhost' } }))
        expect(summary).toMatchObject({ errors: 0, mismatches: 0, protocolNegotiated: 'h2 over TLSv1.3' })
        expect(summary.requests).toBeGreaterThan(100)
        await expect(measure(planOver(server.port, 'h2'))).rejects.toThrow(/presented a certificate that is neither the one in tls\.caFile/)
      })
    } finally {
      signed.remove()
    }
  }, 30_000)

  for (const protocol of ['h2', 'h2c']) {
    it(`speaks ${protocol === 'h2' ? 'HTTP/2 over TLS (ALPN h2)' : 'HTTP/2 in cleartext with prior knowledge'}: every response on every ` +
      'stream checked', async () => {
      const tls = protocol === 'h2' ? { cert: certificate.cert, key: certificate.key } : {}
      await withServer(startHttp2Server({ ...tls, body: BODY, wrongEvery: 7 }), async (server) => {
        const summary = await measure(planOver(server.port, protocol, { connections: 2, streams: 4 }))
        expectEveryResponseCounted(summary, server.served(), 8)
        expect(summary.statusCounts).toEqual({ 200: summary.requests })
        expect(summary.protocolNegotiated).toBe(protocol === 'h2' ? 'h2 over TLSv1.3' : 'h2c')
        expectOneInEveryWrong(summary, 7, 8)
      })
    }, 30_000)
  }

  it('speaks WebSocket: every echo of a binary message checked and timed as a request, a changed echo counted, each connection ' +
    'closed with 1000', async () => {
    await withServer(startWebSocketEcho({ wrongEvery: 10 }), async (server) => {
      const summary = await measure(planOver(server.port, 'ws', { streams: 2, websocket: { message: { binaryBase64: BINARY } } }))
      expectEveryResponseCounted(summary, server.served(), 8)
      // Every message is counted under the status its connection was upgraded with, which is no failed answer.
      expect(summary.statusCounts).toEqual({ 101: summary.requests })
      expect(summary.non2xx).toBe(0)
      expect(summary.protocolNegotiated).toBe('websocket over http/1.1')
      expect(summary.bytesPerSec).toBeGreaterThan(summary.requestsPerSec.mean * 256)
      expectOneInEveryWrong(summary, 10, 8)
      expect(server.closeCodes()).toEqual([1000, 1000, 1000, 1000])
    })
  }, 30_000)

  it('puts as many HTTP/2 streams in flight on each connection as asked: the server sees them open at once, never more', async () => {
    await withServer(startHttp2Server({ body: BODY, holdUntil: 8 }), async (server) => {
      const summary = await measure(planOver(server.port, 'h2c', { connections: 2, streams: 8 }))
      expect(server.mostOpen()).toEqual([8, 8])
      expect(summary).toMatchObject({ errors: 0, timeouts: 0, mismatches: 0 })
      expect(summary.requests).toBeGreaterThan(100)
    })
  }, 30_000)

  it('in a closed loop, each window holds connections × streams of its duration in flight, for every protocol, threads added', async () => {
    // Each answer 50 ms after its request: what the client takes between an answer and its next request (what leaves a stream empty:
    // microseconds; on a machine loaded four times over, a thread waiting its turn for several ms) stays far below the time each
    // request is in flight. At 20 ms a machine at a load of 6 to 9 once left the streams empty a quarter of the time.
    const answerAfterMs = 50
    const servers = {
      http1: () => startHttp1Server({ body: BODY, answerAfterMs }),
      tls: () => startHttp1Server({ cert: certificate.cert, key: certificate.key, body: BODY, answerAfterMs }),
      h2: () => startHttp2Server({ cert: certificate.cert, key: certificate.key, body: BODY, answerAfterMs }),
      h2c: () => startHttp2Server({ body: BODY, answerAfterMs }),
      ws: () => startWebSocketEcho({ answerAfterMs })
    }
    for (const [protocol, start] of Object.entries(servers)) {
      const streams = protocol === 'http1' || protocol === 'tls' ? 1 : 2
      await withServer(start(), async (server) => {
        const summary = await measure(planOver(server.port, protocol, streams > 1 ? { streams } : {}), 2)
        const windows = /** @type {import('../../src/load/timeseries.js').Window[]} */ (summary.timeseries)
        const share = (/** @type {typeof windows} */ some) => some.reduce((sum, window) => sum + (window.inFlightMs ?? NaN), 0) /
          (4 * streams * some.reduce((sum, window) => sum + window.durationMs, 0))
        // The first window also holds the connects and TLS handshakes, when no request is in flight yet. A healthy loop holds 0.95 and
        // more even on a loaded machine; a stream left empty (one of two) would hold half.
        expect(share(windows.slice(1)), protocol).toBeGreaterThan(0.75)
        for (const window of windows) expect(share([window]), `${protocol} at ${window.startMs} ms`).toBeLessThanOrEqual(1.005)
        // The whole phase too, connects included, on a machine that may be slow to make them.
        expect(share(windows), protocol).toBeGreaterThan(0.6)
        // Little's law from the engine's own accounting, whatever the machine's speed: the time in flight is the requests' latencies
        // summed, but for those still in flight at the end (at most connections × streams, none longer than the slowest).
        const inFlightMs = windows.reduce((sum, window) => sum + (window.inFlightMs ?? NaN), 0)
        const { mean, max } = /** @type {{ mean: number, max: number }} */ (summary.latencyMs)
        expect(Math.abs(inFlightMs - summary.requests * mean), protocol).toBeLessThanOrEqual(4 * streams * max + 0.01 * inFlightMs)
      })
    }
  }, 60_000)

  it('refuses a server that negotiates less than the protocol asked for, naming what it speaks', async () => {
    await withServer(startHttp1Server({ cert: certificate.cert, key: certificate.key, body: BODY }), async (server) => {
      await expect(measure(planOver(server.port, 'h2'))).rejects.toThrow(
        new RegExp(String.raw`protocol h2: the server at 127\.0\.0\.1:\d+ refused ALPN h2 .*` +
          String.raw`it negotiates http\/1\.1 over TLSv1\.3: it does not serve HTTP\/2 over TLS`)
      )
    })
    await withServer(startHttp1Server({ body: BODY }), async (server) => {
      await expect(measure(planOver(server.port, 'h2c'))).rejects.toThrow(
        /protocol h2c: the server at 127\.0\.0\.1:\d+ answered the HTTP\/2 connection preface with HTTP\/1 \(`HTTP\/1\.1 400 Bad Request`\)/
      )
    })
  }, 30_000)

  it('refuses a WebSocket handshake that is not an upgrade or carries a wrong accept key, and a certificate that is ' +
    "not the run's", async () => {
    await withServer(startWebSocketEcho({ wrongAccept: true }), async (server) => {
      await expect(measure(planOver(server.port, 'ws'))).rejects.toThrow(
        /answered Sec-WebSocket-Accept `[^`]+`, not `[^`]+` \(the accept of the key sent/
      )
      const elsewhere = planOver(server.port, 'ws', { url: `http://127.0.0.1:${server.port}/elsewhere` })
      await expect(measure(elsewhere)).rejects.toThrow(
        /answered 404 Not Found, not 101 Switching Protocols \(the WebSocket handshake on \/elsewhere\)/
      )
    })
    const stranger = makeCertificate()
    try {
      await withServer(startHttp1Server({ cert: stranger.cert, key: stranger.key, body: BODY }), async (server) => {
        await expect(measure(planOver(server.port, 'tls'))).rejects.toThrow(
          /presented a certificate that is neither the one in tls\.caFile/
        )
        const otherName = planOver(server.port, 'tls', { tls: { caFile: stranger.certFile, serverName: 'example.com' } })
        await expect(measure(otherName)).rejects.toThrow(/is not valid for tls\.serverName example\.com/)
      })
    } finally {
      stranger.remove()
    }
  }, 30_000)

  it('keeps the open model over TLS and HTTP/2: the rate sent on schedule, latency from each intended send', async () => {
    for (const protocol of ['tls', 'h2']) {
      const http2 = protocol === 'h2'
      const tls = { cert: certificate.cert, key: certificate.key, body: BODY }
      await withServer(http2 ? startHttp2Server(tls) : startHttp1Server(tls), async (server) => {
        const summary = await measure(planOver(server.port, protocol, { ratePerSec: 300, ...(http2 ? { streams: 4 } : {}) }))
        expect(summary.rate?.targetPerSec).toBe(300)
        expect(summary.rate?.achievedSendPerSec).toBeGreaterThan(285)
        expect(summary.requests).toBeGreaterThan(270)
        expect(summary).toMatchObject({ errors: 0, timeouts: 0, mismatches: 0 })
      })
    }
  }, 30_000)

  it('refuses settings it cannot run, naming them: the open model over WebSocket, 0 or 100,000 streams, TLS without the ' +
    'certificate', async () => {
    const plan = planOver(1, 'ws', { ratePerSec: 100 })
    await expect(measure(plan)).rejects.toThrow(/ratePerSec \(the open model\) is not supported for protocol ws/)
    for (const streams of [0, 100_000]) {
      await expect(measure(planOver(1, 'h2c', { streams }))).rejects.toThrow(
        `streams must be a whole number from 1 to 10000, got ${streams}`
      )
    }
    const unreadable = planOver(1, 'tls', { tls: { caFile: `${certificate.certFile}.missing`, serverName: 'localhost' } })
    await expect(measure(unreadable)).rejects.toThrow(/the config is not valid: tls\.caFile `[^`]+\.missing` cannot be read/)
    expect(() => engineConfig(planOver(1, 'h2', { tls: null }), 1)).toThrow(/protocol h2 needs the certificate made for the run/)
    expect(() => engineConfig(planOver(1, 'tls', { url: 'http://127.0.0.1:1/json' }), 1)).toThrow(/protocol tls takes a URL of `https:`/)
    expect(() => engineConfig(planOver(1, 'h3'), 1)).toThrow(/no protocol named `h3`; it speaks http1, tls, h2, h2c, ws/)
  }, 30_000)

  it('gives a plan without a protocol the config it always had (with the handshakes\' deadline and the body limit), and says which ' +
    'protocols it speaks', () => {
    const plan = planFor(8080, 'post')
    const config = engineConfig(plan, 1)
    expect(Object.keys(config)).toEqual([
      'address',
      'remoteHost',
      'request',
      'connections',
      'pipelining',
      'threads',
      'phases',
      'windowMs',
      'timeoutMs',
      'handshakeTimeoutMs',
      'bodyLimitBytes',
      'ratePerSec',
      'expectBody'
    ])
    expect(engineConfig({ ...plan, protocol: 'http1' }, 1)).toEqual(config)
    expect(nativeEngine.protocols).toEqual(['http1', 'tls', 'h2', 'h2c', 'ws'])
  })

  afterAll(() => runs.expectNoneLeft(expect))
})

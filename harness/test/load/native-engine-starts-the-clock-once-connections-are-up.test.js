// @ts-check
// The native engine opens fresh connections for each phase and starts the phase's clock only once they are up (TCP and the TLS
// handshake done), so that a phase's req/s and its time in flight are those of its requests, not of its connections' set-up. The
// fixture makes the set-up slow on purpose: a TLS server that takes each new TCP connection only 400 ms after it arrived. Measured
// from its own clock, the phase has responses from its first window on, every window holds about connections × its duration in
// flight (Little's law), and the report says how long the connections took to come up and how many were up when the clock started.
// dyno is told when each phase's clock starts, before that phase's report, so that what it samples over the phase starts there too.
import { createServer as createNetServer } from 'node:net'
import { createServer as createHttpsServer } from 'node:https'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startNativeLoad } from '../../src/load/engines/native/native-engine.js'
import { runEnv } from '../../src/platform/env/run-env.js'
import { planFor } from '../support/engine-under-test.js'
import { trackRuns } from '../support/leftover-processes.js'
import { missing, skipNote } from '../support/needs.js'
import { makeCertificate } from '../support/protocol-servers.js'
import { scenarioNamed } from '../support/run-fixture.js'

const runs = trackRuns()
const absent = missing('native')
const BODY = /** @type {string} */ (scenarioNamed('json').expect.body?.text)
/** How long the fixture holds each new connection before its TLS server sees it: the set-up the clock must not count. */
const HANDOVER_DELAY_MS = 400
const CONNECTIONS = 10

/** @type {ReturnType<typeof makeCertificate>} */
let certificate

/**
 * HTTP/1.1 over TLS 1.3 answering the json scenario's body, behind a listener that hands each TCP connection to the TLS server
 * only HANDOVER_DELAY_MS after it arrived.
 * @returns {Promise<{ port: number, close: () => Promise<void> }>}
 */
async function startSlowToConnectServer () {
  const tls = createHttpsServer({ cert: certificate.cert, key: certificate.key, minVersion: 'TLSv1.3' }, (request, response) => {
    request.resume()
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end(BODY))
  })
  /** @type {Set<import('node:net').Socket>} */
  const open = new Set()
  /** @type {Set<NodeJS.Timeout>} */
  const pending = new Set()
  const listener = createNetServer((socket) => {
    open.add(socket)
    socket.on('close', () => open.delete(socket))
    socket.on('error', () => {})
    const handover = setTimeout(() => {
      pending.delete(handover)
      if (!socket.destroyed) tls.emit('connection', socket)
    }, HANDOVER_DELAY_MS)
    pending.add(handover)
  })
  /** @type {number} */
  const port = await new Promise((resolve) =>
    listener.listen(0, '127.0.0.1', () => resolve(/** @type {import('node:net').AddressInfo} */ (listener.address()).port))
  )
  /** @returns {Promise<void>} */
  const close = () => new Promise((resolve) => {
    for (const handover of pending) clearTimeout(handover)
    listener.close(() => resolve())
    for (const socket of open) socket.destroy()
  })
  return { port, close }
}

describe.skipIf(absent)(`the native engine's phase clock${skipNote(absent)}`, () => {
  beforeAll(() => { certificate = makeCertificate() })
  afterAll(() => certificate?.remove())

  it('starts once the phase\'s connections are up: responses from the first window on, and the wait for them reported', async () => {
    const server = await startSlowToConnectServer()
    try {
      const plan = planFor(server.port, 'json', {
        connections: CONNECTIONS,
        windowMs: 100,
        phases: [{ name: 'warmup', durationSec: 0.3 }, { name: 'measure', durationSec: 1 }]
      })
      const overTls = {
        ...plan,
        url: plan.url.replace(/^http:/, 'https:'),
        protocol: 'tls',
        tls: { caFile: certificate.certFile, serverName: 'localhost' }
      }
      const env = runEnv(runs.add(`clock-${Math.random().toString(16).slice(2, 8)}`))
      /** @type {string[]} */
      const told = []
      const hooks = {
        onClock: (/** @type {string} */ phase) => told.push(`clock ${phase}`),
        onPhase: (/** @type {string} */ phase) => told.push(`end ${phase}`)
      }
      const { phases } = await startNativeLoad(overTls, { env, threads: 2, ...hooks }).done
      expect(told).toEqual(['clock warmup', 'end warmup', 'clock measure', 'end measure'])
      const measured = /** @type {import('../../src/load/load-plan.js').PhaseSummary} */ (phases.measure)
      // The phase lasted its second from its own clock, and the set-up is not in it.
      expect(measured.durationSec).toBeCloseTo(1, 2)
      const windows = /** @type {import('../../src/load/timeseries.js').Window[]} */ (measured.timeseries)
      expect(windows.length).toBe(10)
      // The first window has answers: the set-up is not in it. A window later in the phase may be empty where the server (in this
      // test's process) or the engine was descheduled for 100 ms: the hypervisor here steals that; two of ten may be.
      expect(windows[0].requests).toBeGreaterThan(0)
      const answered = windows.map((window) => window.requests)
      expect(answered.filter((requests) => requests > 0).length, JSON.stringify(answered)).toBeGreaterThanOrEqual(8)
      // Little's law over the whole phase, first window included: the connections carried requests all along. Had the set-up
      // counted, at most 0.6 of connections × the phase would have been in flight.
      const inFlightMs = windows.reduce((sum, window) => sum + (window.inFlightMs ?? NaN), 0)
      const durationMs = windows.reduce((sum, window) => sum + window.durationMs, 0)
      expect(inFlightMs / (CONNECTIONS * durationMs)).toBeGreaterThan(0.9)
      // Each phase, on its fresh connections, says how long they took to come up before its clock started, and that all were up.
      for (const name of /** @type {const} */ (['warmup', 'measure'])) {
        const summary = /** @type {import('../../src/load/load-plan.js').PhaseSummary} */ (phases[name])
        expect(summary, name).toMatchObject({ errors: 0, timeouts: 0, mismatches: 0, stoppedEarly: false })
        expect(summary.connectMs, name).toBeGreaterThanOrEqual(HANDOVER_DELAY_MS * 0.75)
        expect(summary.connectionsUp, name).toBe(CONNECTIONS)
      }
    } finally {
      await server.close()
    }
  }, 30_000)

  afterAll(() => runs.expectNoneLeft(expect))
})

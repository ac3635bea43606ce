// @ts-check
// The native engine against servers that lie: a Content-Length or a chunk size no buffer can hold, a head that never ends, a body past
// the engine's limit, a WebSocket upgrade never answered. Each phase ends as planned with the lie counted as an invalid response (or a
// failed handshake) under its reason, the engine still alive to report it, and the run judged invalid with that reason.
import { afterAll, describe, expect, it } from 'vitest'
import { underLoadProblems } from '../../src/judging/under-load-check.js'
import { startNativeLoad } from '../../src/load/engines/native/native-engine.js'
import { DEFAULT_MAX_BODY_MIB } from '../../src/load/engines/native/native-options.js'
import { runEnv } from '../../src/platform/env/run-env.js'
import { planFor } from '../support/engine-under-test.js'
import { trackRuns } from '../support/leftover-processes.js'
import { startLyingServer, startSilentServer } from '../support/lying-servers.js'
import { missing, skipNote } from '../support/needs.js'
import { withServer } from '../support/with-server.js'

const runs = trackRuns()
const absent = missing('native')

/** @typedef {import('../../src/load/engines/native/native-report.js').NativePhaseSummary} NativePhaseSummary */

/** @param {string} headers @param {string | Buffer} [body] @returns {Buffer} a 200 whose head states `headers` */
const response = (headers, body = '') => Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\n${headers}\r\n\r\n`, 'latin1'), Buffer.from(body)])

/** A chunked body of 64 KiB chunks that add up to one chunk past the engine's limit (its default), the last chunk never sent. */
function chunksPastTheLimit () {
  const chunkBytes = 64 * 1024
  const chunk = Buffer.concat([Buffer.from(`${chunkBytes.toString(16)}\r\n`), Buffer.alloc(chunkBytes, 'x'), Buffer.from('\r\n')])
  const chunks = DEFAULT_MAX_BODY_MIB * 1024 * 1024 / chunkBytes + 1
  return [response('Transfer-Encoding: chunked'), ...Array.from({ length: chunks }, () => chunk)]
}

const LIES = [
  {
    lie: 'a Content-Length of 2^64 − 1',
    answer: () => response('Content-Length: 18446744073709551615', 'hello'),
    reason: 'a Content-Length over bodyLimitBytes'
  },
  {
    lie: 'a chunk size of fffffffffffffffe',
    answer: () => response('Transfer-Encoding: chunked', 'fffffffffffffffe\r\nhello'),
    reason: 'a chunk size over bodyLimitBytes'
  },
  {
    lie: 'a head over 64 KiB',
    answer: () => response(`X-Padding: ${'a'.repeat(70 * 1024)}\r\nContent-Length: 2`, 'ok'),
    reason: 'a head over 64 KiB'
  },
  { lie: 'a chunked body past the body limit', answer: chunksPastTheLimit, reason: 'chunks adding up to more than bodyLimitBytes' }
]

/**
 * Runs the engine on `plan` (its process marked for the leftover check) and returns the measured phase: the engine's `done` rejects
 * when it exits early (an abort) or outlives its planned time, and that fails the test.
 * @param {import('../../src/load/engines/native/native-protocols.js').NativePlan} plan
 * @returns {Promise<NativePhaseSummary>}
 */
async function measure (plan) {
  const env = runEnv(runs.add(`lying-${Math.random().toString(16).slice(2, 8)}`))
  const { phases } = await startNativeLoad(plan, { env, threads: 1 }).done
  return /** @type {NativePhaseSummary} */ (phases.measure)
}

describe.skipIf(absent)(`the native engine against a server that lies about lengths${skipNote(absent)}`, () => {
  for (const { lie, answer, reason } of LIES) {
    it(`counts ${lie} as an invalid response named "${reason}" and ends the phase as planned`, async () => {
      await withServer(startLyingServer(answer()), async (server) => {
        const summary = await measure(planFor(server.port, 'json', { connections: 2 }))
        expect(summary.stoppedEarly).toBe(false)
        expect(summary.requests).toBe(0)
        expect(summary.invalidResponses).toBeGreaterThan(0)
        expect(summary.invalidResponses).toBeLessThanOrEqual(server.requests())
        expect(summary.failureReasons).toEqual({ [reason]: summary.invalidResponses })
        // Each lie ends its connection: the request it answered is an error too.
        expect(summary.errors).toBeGreaterThanOrEqual(/** @type {number} */ (summary.invalidResponses))
        expect(underLoadProblems({ measure: summary }, 200)).toContain(
          `measure: ${summary.invalidResponses} responses were invalid (${summary.invalidResponses}× ${reason})`
        )
      })
    }, 30_000)
  }

  it('names a WebSocket upgrade never answered as such, each connection trying again after the deadline, and ends the phase', async () => {
    await withServer(startSilentServer(), async (server) => {
      const summary = await measure(planFor(server.port, 'ws-echo', { connections: 2 }))
      const reason = 'the WebSocket upgrade was not answered within handshakeTimeoutMs'
      expect(summary).toMatchObject({ requests: 0, connectionsUp: 0, invalidResponses: 0, stoppedEarly: false })
      expect(summary.failureReasons?.[reason]).toBeGreaterThanOrEqual(2)
      expect(summary.errors).toBeGreaterThanOrEqual(/** @type {number} */ (summary.failureReasons?.[reason]))
      expect(server.requests()).toBeGreaterThanOrEqual(2)
    })
  }, 30_000)

  afterAll(() => runs.expectNoneLeft(expect))
})

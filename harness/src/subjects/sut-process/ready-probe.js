// @ts-check
// A service that prints nothing is ready once a GET of its probe path answers (with the status its config asks for, when it asks for
// one). dyno asks again every PROBE_INTERVAL_MS until the ready timeout, the service's exit or an interruption.
import { request } from 'node:http'
import { DynoError } from '../../platform/errors.js'
import { describeExit } from './exit-text.js'

/** Between two tries of the probe; a try itself is bounded by PROBE_TIMEOUT_MS. */
const PROBE_INTERVAL_MS = 100
const PROBE_TIMEOUT_MS = 2000

/**
 * @param {import('../../platform/hosts/host.js').HostProcess} child
 * @param {import('./readiness.js').ReadyWait & { address: string, port: number, path: string, status: number | null,
 *   portGiven: boolean }} wait portGiven: the config names the port the service always uses
 * @returns {Promise<import('./start-sut.js').ReadyLine>}
 */
export async function waitForProbe (child, { sut, stderr, readyTimeoutSec, signal, address, port, path, status, portGiven }) {
  const portHint = portGiven
    ? `its config says it always listens on ${port}`
    : `it was given PORT=${port} and must listen there (or its config must name the port it always uses)`
  const deadline = Date.now() + readyTimeoutSec * 1000
  let exit = /** @type {{ code: number | null, signal: NodeJS.Signals | null } | null} */ (null)
  child.exited.then((ended) => { exit = ended })
  let last = 'no answer yet'
  while (true) {
    if (signal?.aborted) {
      throw new DynoError('DYNO_ERR_INTERRUPTED', `interrupted by ${String(signal.reason)} while waiting for ${sut.name} to be ready`)
    }
    if (exit) {
      throw new DynoError('DYNO_ERR_SUT_EXITED',
        `${sut.name} exited before it was ready (${describeExit(exit.code, exit.signal)}); last stderr lines:\n${stderr.format()}`,
        { details: { stderrTail: stderr.snapshot(), exitCode: exit.code, exitSignal: exit.signal } })
    }
    if (Date.now() > deadline) {
      throw new DynoError('DYNO_ERR_SUT_NOT_READY',
        `${sut.name} did not answer GET ${path} on port ${port}${status === null ? '' : ` with ${status}`} within ` +
          `${readyTimeoutSec} s (last: ${last}); ${portHint}; last stderr lines:\n${stderr.format()}`,
        { details: { stderrTail: stderr.snapshot() } })
    }
    const answered = await probeOnce(address, port, path, signal)
    if (typeof answered === 'number' && (status === null || answered === status)) return { event: 'ready', port, protocol: 'http1' }
    last = typeof answered === 'number' ? `status ${answered}` : answered
    await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS))
  }
}

/**
 * @param {string} address @param {number} port @param {string} path @param {AbortSignal | undefined} signal
 * @returns {Promise<number | string>} the status, or why there was none
 */
function probeOnce (address, port, path, signal) {
  return new Promise((resolve) => {
    const req = request({ host: address, port, path, method: 'GET', timeout: PROBE_TIMEOUT_MS, signal, agent: false }, (response) => {
      response.resume()
      response.on('end', () => resolve(response.statusCode ?? 0))
      response.on('error', (error) => resolve(error.message))
    })
    req.on('timeout', () => req.destroy(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)))
    req.on('error', (error) => resolve(/** @type {NodeJS.ErrnoException} */ (error).code ?? error.message))
    req.end()
  })
}

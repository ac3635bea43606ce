// @ts-check
// How dyno learns that a SUT listens, and on which port: each kind of readiness says what PORT to pass and how to wait.
import { freePort } from '../../platform/hosts/free-port.js'
import { waitForReadyLine } from './ready-line.js'
import { waitForProbe } from './ready-probe.js'

/**
 * @typedef {{ sut: import('../suts/discover-suts.js').SutDescriptor, stderr: import('../../platform/process/line-tail.js').LineTail,
 *   readyTimeoutSec: number, signal?: AbortSignal }} ReadyWait
 * @typedef {object} Readiness
 * @property {(host: import('../../platform/hosts/host.js').Host | null) => Promise<string>} port the PORT the SUT is given: one free on
 *   the host it runs on (null: this machine), where it is told one
 * @property {(child: import('../../platform/hosts/host.js').HostProcess, wait: ReadyWait & { address: string, port: string }) =>
 *   Promise<import('./start-sut.js').ReadyLine>} wait until it listens
 */

/** @type {{ [K in import('../suts/discover-suts.js').SutReadiness['kind']]: (spec: any) => Readiness }} */
const READINESS = {
  // dyno's own SUTs bind any free port and announce it.
  line: () => ({
    port: async () => '0',
    wait: (child, wait) => waitForReadyLine(child, wait)
  }),
  probe: (/** @type {Extract<import('../suts/discover-suts.js').SutReadiness, { kind: 'probe' }>} */ spec) => ({
    port: async (host) => String(spec.port !== 'env' ? spec.port : host ? (await host.freePorts(1))[0] : await freePort()),
    wait: (child, wait) =>
      waitForProbe(child, { ...wait, port: Number(wait.port), path: spec.path, status: spec.status, portGiven: spec.port !== 'env' })
  })
}

/** @param {import('../suts/discover-suts.js').SutDescriptor} sut @returns {Readiness} */
export const readinessOf = (sut) => READINESS[sut.readiness?.kind ?? 'line'](sut.readiness)

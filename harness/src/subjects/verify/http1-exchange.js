// @ts-check
// HTTP/1.1, in cleartext or over TLS: the measured request, a second one on the same kept-alive connection, repeats of a scenario whose
// answers vary, then every probe; over TLS, the version and ALPN protocol the connection negotiated too.
import { readFileSync } from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import { checkResponse } from './check-response.js'
import { sendProbe } from './http-probe.js'

/** @typedef {import('./check-response.js').Check} Check */

/** Requests beyond the first two that a `varies` scenario sends: five bodies all alike in 10,000 rows is no accident. */
const VARIES_EXTRA_REQUESTS = 3

/** @param {import('@dyno/scenarios').RequestSpec} request */
export const describeRequest = (request) => `${request.method} ${request.path}`

/**
 * The TLS a verification client asks for: the run's certificate trusted, its name sent and checked, TLS 1.3 at least.
 * @param {import('./verify-scenario.js').VerifyTarget} target
 * @returns {{ ca: Buffer, servername: string, minVersion: 'TLSv1.3' } | null} null: verification was given no certificate to trust
 */
export function clientTls ({ trust }) {
  if (!trust) return null
  return { ca: readFileSync(trust.caFile), servername: trust.serverName, minVersion: 'TLSv1.3' }
}

/** The failed check of a TLS scenario verified without the run's certificate. @param {string} label @returns {Check} */
export const noTrust = (label) => ({
  request: label,
  check: 'TLS',
  ok: false,
  expected: "the run's certificate to verify the SUT's against",
  actual: 'verification was given none'
})

/**
 * HTTP/1.1 in cleartext.
 * @type {import('./protocol-verifiers.js').ProtocolVerifier}
 */
export async function verifyHttp1 (target, scenario) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  try {
    return await exchange({ ...target, agent }, scenario)
  } finally {
    agent.destroy()
  }
}

/**
 * HTTP/1.1 over TLS: as in cleartext, on a connection that must have negotiated TLS 1.3 (the client offers ALPN `http/1.1` only).
 * @type {import('./protocol-verifiers.js').ProtocolVerifier}
 */
export async function verifyTls (target, scenario) {
  const tls = clientTls(target)
  if (!tls) return [noTrust(describeRequest(scenario.request))]
  const agent = new https.Agent({ keepAlive: true, maxSockets: 1, ...tls, ALPNProtocols: ['http/1.1'] })
  try {
    return await exchange({ ...target, agent }, scenario, (label, response) => {
      const version = response.tls?.version ?? null
      return [{ request: label, check: 'TLS version negotiated', ok: version === 'TLSv1.3', expected: 'TLSv1.3', actual: version }]
    })
  } finally {
    agent.destroy()
  }
}

/**
 * @param {{ host: string, port: number, timeoutMs: number, agent: http.Agent }} target
 * @param {import('@dyno/scenarios').Scenario} scenario
 * @param {(label: string, response: import('./http-probe.js').ProbeResponse) => Check[]} [connectionChecks] checks of the first answer's
 *   connection
 * @returns {Promise<Check[]>}
 */
async function exchange (target, scenario, connectionChecks) {
  const label = describeRequest(scenario.request)
  /** @type {Check[]} */
  const checks = []
  const first = await probeOrFailure(target, scenario.request, label, checks)
  if (first) checks.push(...(connectionChecks?.(label, first) ?? []), ...checkResponse(label, first, scenario.expect))
  const second = await probeOrFailure(target, scenario.request, label, checks)
  if (first && second) {
    checks.push({
      request: label,
      check: 'keep-alive: a second request on the same connection',
      ok: second.reusedSocket && second.status === scenario.expect.status,
      expected: `answered ${scenario.expect.status} on the reused connection`,
      actual: second.reusedSocket ? `answered ${second.status}` : 'the connection was not kept alive'
    })
  }
  if (scenario.expect.varies && first && second) {
    const repeats = [first, second]
    for (let extra = 0; extra < VARIES_EXTRA_REQUESTS; extra++) {
      const response = await probeOrFailure(target, scenario.request, label, checks)
      if (response) repeats.push(response)
    }
    const distinct = new Set(repeats.map((response) => response.body)).size
    checks.push({
      request: label,
      check: 'answers vary between requests',
      ok: distinct > 1,
      expected: `more than one distinct body in ${repeats.length} requests`,
      actual: `${distinct} distinct`
    })
  }
  for (const probe of scenario.probes) {
    const probeLabel = describeRequest(probe.request)
    const response = await probeOrFailure(target, probe.request, probeLabel, checks, probe.name)
    if (response) checks.push(...checkResponse(probeLabel, response, probe.expect).map((check) => ({ ...check, probe: probe.name })))
  }
  return checks
}

/**
 * Sends a request; a transport failure becomes a failed check instead of an exception.
 * @param {Parameters<typeof sendProbe>[0]} target
 * @param {import('@dyno/scenarios').RequestSpec} request
 * @param {string} label
 * @param {Check[]} checks
 * @param {string} [probe]
 */
export async function probeOrFailure (target, request, label, checks, probe) {
  try {
    return await sendProbe(target, request)
  } catch (error) {
    checks.push({
      request: label,
      check: 'answered',
      ok: false,
      expected: 'a complete HTTP response',
      actual: /** @type {Error} */ (error).message,
      ...(probe ? { probe } : {})
    })
    return null
  }
}

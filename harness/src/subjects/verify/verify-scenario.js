// @ts-check
import http from 'node:http'
import { checkResponse } from './check-response.js'
import { sendProbe } from './http-probe.js'

/**
 * @typedef {object} Verification
 * @property {boolean} performed
 * @property {boolean} passed
 * @property {import('./check-response.js').Check[]} checks
 */

/** Requests beyond the first two that a `varies` scenario sends: five bodies all alike in 10,000 rows is no accident. */
const VARIES_EXTRA_REQUESTS = 3

/** @param {import('@dyno/scenarios').RequestSpec} request */
const describeRequest = (request) => `${request.method} ${request.path}`

/**
 * Checks a running SUT against one scenario: the measured request (status, content type, body,
 * framing), a second request on the same keep-alive connection, then every probe in order.
 * @param {{ host: string, port: number, timeoutMs: number }} target
 * @param {import('@dyno/scenarios').Scenario} scenario
 * @returns {Promise<Verification>}
 */
export async function verifyScenario ({ host, port, timeoutMs }, scenario) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  const target = { host, port, agent, timeoutMs }
  const label = describeRequest(scenario.request)
  /** @type {import('./check-response.js').Check[]} */
  const checks = []
  try {
    const first = await probeOrFailure(target, scenario.request, label, checks)
    if (first) checks.push(...checkResponse(label, first, scenario.expect))
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
  } finally {
    agent.destroy()
  }
  return { performed: true, passed: checks.every((check) => check.ok), checks }
}

/**
 * Sends a request; a transport failure becomes a failed check instead of an exception.
 * @param {Parameters<typeof sendProbe>[0]} target
 * @param {import('@dyno/scenarios').RequestSpec} request
 * @param {string} label
 * @param {import('./check-response.js').Check[]} checks
 * @param {string} [probe]
 */
async function probeOrFailure (target, request, label, checks, probe) {
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

/**
 * The reason a failed verification gives, naming the first failed checks.
 * @param {Verification} verification
 */
export function describeFailedChecks (verification) {
  const failed = verification.checks.filter((check) => !check.ok)
  const shown = failed.slice(0, 3).map((check) =>
    `${check.request}${check.probe ? ` (${check.probe})` : ''}: ${check.check} expected ${JSON.stringify(check.expected)}, got ${JSON.stringify(check.actual)}`)
  return `${failed.length} of ${verification.checks.length} checks failed: ${shown.join('; ')}${failed.length > 3 ? '; …' : ''}`
}

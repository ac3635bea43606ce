// @ts-check
import { loadBodyModule } from './body-module.js'
import { PROTOCOL_VERIFIERS } from './protocol-verifiers.js'

/**
 * @typedef {object} Verification
 * @property {boolean} performed
 * @property {boolean} passed
 * @property {import('./check-response.js').Check[]} checks
 *
 * @typedef {object} VerifyTarget where a running SUT is checked
 * @property {string} host
 * @property {number} port
 * @property {number} timeoutMs how long one request, handshake or message may take, however the SUT trickles it
 * @property {AbortSignal} [signal] ends every exchange under way at once (the run's, or `dyno verify`'s, interruption)
 * @property {{ caFile: string, serverName: string } | null} [trust] the run's certificate (run-certificate.js), which the SUT of a TLS
 *   scenario must present; absent: a TLS scenario fails verification, saying so
 */

/**
 * Checks a running SUT against one scenario, in the scenario's protocol (protocol-verifiers.js): for HTTP, the measured request
 * (status, content type, body, framing), a second request on the same connection, then every probe in order; for the others what
 * the protocol must show besides (the TLS version and ALPN negotiated, HTTP/1.1 refused on an HTTP/2 port, the WebSocket exchange).
 * @param {VerifyTarget} target
 * @param {import('@dyno/scenarios').Scenario} scenario
 * @returns {Promise<Verification>}
 */
export async function verifyScenario (target, scenario) {
  await loadBodyModule(scenario.expect.body)
  const checks = []
  for (const sent of verifiedForms(scenario)) checks.push(...await PROTOCOL_VERIFIERS[scenario.protocol](target, sent))
  return { performed: true, passed: checks.length > 0 && checks.every((check) => check.ok), checks }
}

/** How many of a scenario's drawn requests verification sends: the first ones load sends. */
const VERIFIED_DRAWS = 3

/**
 * The scenario as verification sends it: as it is, or with requests in turn, once with each of the first VERIFIED_DRAWS and with
 * the first of each request of a weighted mix that they leave out.
 * @param {import('@dyno/scenarios').Scenario} scenario
 * @returns {import('@dyno/scenarios').Scenario[]}
 */
function verifiedForms (scenario) {
  const { inTurn, ...request } = scenario.request
  if (!inTurn) return [scenario]
  const seen = new Set(inTurn.slice(0, VERIFIED_DRAWS).map((drawn) => drawn.entry))
  const firstOfOthers = inTurn.filter((drawn) => !seen.has(drawn.entry) && seen.add(drawn.entry))
  return [...inTurn.slice(0, VERIFIED_DRAWS), ...firstOfOthers]
    .map(({ entry, ...drawn }) => ({ ...scenario, request: { ...request, ...drawn } }))
}

/**
 * The reason a failed verification gives, naming the first failed checks.
 * @param {Verification} verification
 */
export function describeFailedChecks (verification) {
  const failed = verification.checks.filter((check) => !check.ok)
  const shown = failed
    .slice(0, 3)
    .map(
      (check) =>
        `${check.request}${check.probe ? ` (${check.probe})` : ''}: ${check.check} expected ${JSON.stringify(check.expected)}, got ` +
          `${JSON.stringify(check.actual)}`
    )
  return `${failed.length} of ${verification.checks.length} checks failed: ${shown.join('; ')}${failed.length > 3 ? '; …' : ''}`
}

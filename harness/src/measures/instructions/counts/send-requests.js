// @ts-check
// A fixed number of requests, not a duration: the instruction count of a SUT is taken over a known number of
// responses, at low concurrency, each checked as under any load.
import http from 'node:http'
import { bodyVerifier } from '../../../subjects/verify/body-verifier.js'
import { sendProbe } from '../../../subjects/verify/http-probe.js'

/**
 * @typedef {object} RequestCounts
 * @property {number} responses
 * @property {number} mismatches responses whose body did not match the scenario
 * @property {number} unexpectedStatus responses whose status was not the scenario's
 * @property {number} errors requests that got no response
 */

/**
 * Sends `count` requests of the scenario over `concurrency` keep-alive connections, each waiting for its answer.
 * @param {{ port: number, scenario: import('@dyno/scenarios').Scenario, count: number, concurrency: number, timeoutMs: number,
 *   agent?: http.Agent }} plan agent: keep-alive connections to reuse (and leave open), so successive calls share them
 * @returns {Promise<RequestCounts>}
 */
export async function sendRequests ({ port, scenario, count, concurrency, timeoutMs, agent: given }) {
  const agent = given ?? new http.Agent({ keepAlive: true, maxSockets: concurrency })
  const verify = bodyVerifier(scenario.expect.body)
  const counts = { responses: 0, mismatches: 0, unexpectedStatus: 0, errors: 0 }
  let next = 0
  const worker = async () => {
    while (next < count) {
      next += 1
      try {
        const response = await sendProbe({ host: '127.0.0.1', port, agent, timeoutMs }, scenario.request)
        counts.responses += 1
        if (response.status !== scenario.expect.status) counts.unexpectedStatus += 1
        if (verify && !verify(response.body)) counts.mismatches += 1
      } catch {
        counts.errors += 1
      }
    }
  }
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker))
  } finally {
    if (!given) agent.destroy()
  }
  return counts
}

// @ts-check
// Checks of what a SUT answered under load: every response as the contract says, and its queries as many as its requests.
import { roundTo } from '../platform/util/numbers.js'

/**
 * @typedef {object} CheckedPhase what these checks read of a phase's summary (load/load-plan.js's PhaseSummary)
 * @property {number} requests
 * @property {number} mismatches responses whose body was not the contract's
 * @property {number} unexpectedStatus responses whose status was not the contract's
 * @property {Record<string, number>} statusCounts
 * @property {number} [invalidResponses] responses the engine refused as impossible (a length that cannot be, a head or body over its
 *   bound); engines that judge them only
 * @property {Record<string, number>} [failureReasons] what ended requests or connections, by reason, with how many
 */

/**
 * A SUT that breaks under load never gets a clean number: any response with a wrong body, a
 * status other than the scenario's, or one the engine refused as invalid (a length that cannot be, a
 * head or body over its bound) makes the run invalid. Returns the reason, or null when clean.
 * @param {Partial<Record<'warmup' | 'measure', CheckedPhase | null>>} phases
 * @param {number} expectedStatus
 * @returns {string | null}
 */
export function underLoadProblems (phases, expectedStatus) {
  const problems = []
  for (const [name, summary] of Object.entries(phases)) {
    if (!summary) continue
    if (summary.mismatches > 0) {
      problems.push(`${name}: ${summary.mismatches} of ${summary.requests} responses had a body that does ` +
      'not match the scenario')
    }
    if (summary.unexpectedStatus > 0) {
      const others = Object.entries(summary.statusCounts).filter(([status]) => status !== String(expectedStatus))
        .map(([status, count]) => `${count}× ${status}`).join(', ')
      problems.push(
        `${name}: ${summary.unexpectedStatus} of ${summary.requests} responses had a status other than ${expectedStatus} (${others})`
      )
    }
    if (summary.invalidResponses) {
      const reasons = Object.entries(summary.failureReasons ?? {}).map(([reason, count]) => `${count}× ${reason}`).join(', ')
      problems.push(`${name}: ${summary.invalidResponses} responses were invalid (${reasons})`)
    }
  }
  return problems.length === 0 ? null : `DYNO_ERR_UNEXPECTED_UNDER_LOAD: ${problems.join('; ')}`
}

/**
 * A measured phase in which no response completed is no measurement of the SUT: what kept them from completing (errors, answers that
 * never ended) is named instead of a rate of 0.
 * @param {Partial<Record<'warmup' | 'measure', (CheckedPhase & { errors: number, timeouts?: number }) | null>>} phases
 * @returns {string | null}
 */
export function nothingAnswered ({ measure }) {
  if (!measure || measure.requests > 0) return null
  const timeouts = measure.timeouts ? `, ${measure.timeouts} timeouts` : ''
  return `DYNO_ERR_UNEXPECTED_UNDER_LOAD: measure: no response completed (${measure.errors} errors${timeouts}): the SUT answered ` +
    'nothing whole'
}

/** The lowest share of responses that must have made their query. */
const MIN_QUERIES_PER_RESPONSE = 0.9
/** The highest, beyond the requests still in flight when the load stopped (answered, but not counted). */
const MAX_QUERIES_PER_RESPONSE = 1.1

/**
 * Compares the queries a service counted during the load with the responses the generator counted.
 * Requests in flight when the load stops make their query without being counted as responses, so up
 * to connections × pipelining extra queries are allowed.
 * @param {string} service
 * @param {number} queries
 * @param {Partial<Record<'warmup' | 'measure', CheckedPhase | null>>} phases
 * @param {{ connections: number, pipelining: number }} load
 */
export function queryRatio (service, queries, phases, load) {
  const requests = (phases.warmup?.requests ?? 0) + (phases.measure?.requests ?? 0)
  const inFlight = load.connections * load.pipelining * Object.values(phases).filter(Boolean).length
  const queriesPerRequest = requests === 0 ? null : roundTo(queries / requests, 3)
  const withinBounds =
    requests > 0 && queries >= requests * MIN_QUERIES_PER_RESPONSE && queries <= requests * MAX_QUERIES_PER_RESPONSE + inFlight
  return { service, queries, requests, queriesPerRequest, withinBounds }
}

// @ts-check
// How long an open-model step is measured: long enough that its objective's percentiles rest on requests, not on one. For a term
// `pP<=B`, a step holds at least REQUESTS_PAST_PERCENTILE / (1 − P/100) requests after its warm-up, so that that many lie past the
// percentile; at a rate too low to send them in `--step` seconds, the step is lengthened to send them (argued in docs/measuring.md).
import { roundTo } from '../../platform/util/numbers.js'

/** The requests a step holds past its objective's highest percentile: one pause of the machine delays fewer than these. */
export const REQUESTS_PAST_PERCENTILE = 20

/**
 * The fewest measured requests a step judged at `percentile` holds: ceil(20 / (1 − P/100)); p99 → 2,000, p99.9 → 20,000, p50 → 40.
 * @param {number} percentile above 0 and below 100
 * @returns {number}
 */
export function requiredRequests (percentile) {
  // In hundredths, rounded to a millionth first, so that p99.9's 0.1 % (0.09999…) does not ceil to one request more.
  return Math.ceil(roundTo(REQUESTS_PAST_PERCENTILE * 100 / (100 - percentile), 6))
}

/**
 * The fewest measured requests of a step judged on every term of `objective`: its highest percentile's.
 * @param {import('./objective.js').Objective} objective
 * @returns {number}
 */
export const objectiveRequests = (objective) => Math.max(...objective.terms.map((term) => requiredRequests(term.percentile)))

/**
 * The measured seconds of a step at `ratePerSec`: `--step`, or as long as sending the requests its objective needs takes, if longer.
 * @param {{ stepSec: number, ratePerSec: number, requests: number }} step requests: objectiveRequests
 * @returns {number} in whole ms, rounded up; p99 at 100 req/s with 1-s steps: 20
 */
export const stepDurationSec = ({ stepSec, ratePerSec, requests }) =>
  Math.max(stepSec, Math.ceil(roundTo(requests * 1000 / ratePerSec, 6)) / 1000)

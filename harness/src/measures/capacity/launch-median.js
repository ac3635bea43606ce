// @ts-check
// A SUT's launches combined when one of them held nothing: such a launch's capacity is not 0 but below the lowest step, a value censored
// from above at --min-rate. Its logarithm does not exist, so the geometric mean and its t interval cannot take it; the median can, and so
// can the interval of the median from order statistics, which needs no value's size, only its place: a launch that held nothing is
// below every launch that held a step. The interval is the narrowest pair of order statistics that covers the median with at least
// MEDIAN_CONFIDENCE; with too few launches for that (fewer than 6), the widest, with the confidence it has (3 launches: 75 %).

/** The confidence the median's interval aims at. */
export const MEDIAN_CONFIDENCE = 0.95

/**
 * @typedef {{ perSec: number, censored: boolean }} LaunchValue a launch's capacity; censored: it held nothing, so it is below perSec (the
 *   lowest step)
 * @typedef {object} CensoredMedian
 * @property {LaunchValue} median
 * @property {[LaunchValue, LaunchValue]} interval the median's, from order statistics
 * @property {number} confidencePct how sure the interval is to hold the median of launches, in %
 */

/**
 * P(X ≤ k) for X ~ Binomial(n, 1/2).
 * @param {number} k @param {number} n
 */
function binomialHalfCdf (k, n) {
  let term = 0.5 ** n
  let sum = 0
  for (let i = 0; i <= k; i++) {
    sum += term
    term = term * (n - i) / (i + 1)
  }
  return sum
}

/**
 * @param {number[]} capacities each launch's capacity (req/s); 0: it held nothing
 * @param {number} lowestPerSec the lowest step offered (--min-rate): a launch that held nothing is below it
 * @returns {CensoredMedian | null} null: no launch
 */
export function censoredMedian (capacities, lowestPerSec) {
  const n = capacities.length
  if (n === 0) return null
  /** @type {LaunchValue[]} */
  const sorted = [...capacities].sort((a, b) => a - b)
    .map((perSec) => perSec > 0 ? { perSec, censored: false } : { perSec: lowestPerSec, censored: true })
  // The k-th lowest and the k-th highest cover the median with 1 − 2·P(X ≤ k − 1); the largest k that keeps MEDIAN_CONFIDENCE.
  let k = 1
  while (k + 1 <= Math.ceil(n / 2) && 1 - 2 * binomialHalfCdf(k, n) >= MEDIAN_CONFIDENCE) k += 1
  const middle = (n - 1) / 2
  const median = Number.isInteger(middle) || sorted[Math.floor(middle)].censored || sorted[Math.ceil(middle)].censored
    ? sorted[Math.floor(middle)]
    : { perSec: (sorted[Math.floor(middle)].perSec + sorted[Math.ceil(middle)].perSec) / 2, censored: false }
  return {
    median,
    interval: [sorted[k - 1], sorted[n - k]],
    confidencePct: Math.round((1 - 2 * binomialHalfCdf(k - 1, n)) * 1000) / 10
  }
}

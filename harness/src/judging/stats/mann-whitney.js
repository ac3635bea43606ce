// @ts-check
import { midranks } from './midranks.js'
import { normalSurvival } from './normal-distribution.js'

/**
 * The Mann–Whitney U test, two-sided: do two independent samples come from the same distribution,
 * or does one tend to be larger? Rank-based, so one wild repeat (a hiccup of a shared CI machine)
 * moves it by one rank, not by its size, and it assumes no normality of req/s.
 *
 * - exact: the p-value from the exact distribution of U, used when there are no ties and both
 *   samples have at most {@link EXACT_MAX_SIZE} values (scipy's `method='exact'` gives the same).
 * - normal: the normal approximation with the tie correction of the variance and a continuity
 *   correction (scipy's `method='asymptotic'`, `use_continuity=True`) otherwise.
 */

/** Largest sample size (each side) for which the exact distribution is computed (2,500 × 2,501 additions). */
export const EXACT_MAX_SIZE = 50

/**
 * @typedef {object} MannWhitneyResult
 * @property {number} u U of the first sample: pairs (x, y) with x > y, ties counting one half
 * @property {number} pValue two-sided
 * @property {'exact' | 'normal'} method
 * @property {boolean} ties whether any value occurs more than once in the pooled sample
 */

/**
 * The exact null distribution of U for sample sizes m and n (no ties): P(U = u) for u = 0 … m·n.
 * Built with the recurrence on the largest pooled value: it is an x with probability m/(m+n) (and
 * beats all n y's) or a y: P[m,n](u) = m/(m+n)·P[m−1,n](u−n) + n/(m+n)·P[m,n−1](u). Only sums of
 * positive terms, so no cancellation.
 * @param {number} m
 * @param {number} n
 * @returns {Float64Array}
 */
export function exactUDistribution (m, n) {
  /** @type {Float64Array[]} row[j]: the distribution for sizes (i, j) of the current i */
  let previousRow = Array.from({ length: n + 1 }, () => Float64Array.of(1))
  for (let i = 1; i <= m; i++) {
    /** @type {Float64Array[]} */
    const row = [Float64Array.of(1)]
    for (let j = 1; j <= n; j++) {
      const distribution = new Float64Array(i * j + 1)
      const fromX = previousRow[j]
      const fromY = row[j - 1]
      const weightX = i / (i + j)
      const weightY = j / (i + j)
      for (let u = 0; u < fromX.length; u++) distribution[u + j] += weightX * fromX[u]
      for (let u = 0; u < fromY.length; u++) distribution[u] += weightY * fromY[u]
      row.push(distribution)
    }
    previousRow = row
  }
  return previousRow[n]
}

/**
 * P(U ≥ u) under the null, exact, summed over the tail itself (no 1 − cdf cancellation).
 * @param {Float64Array} distribution from exactUDistribution
 * @param {number} u
 */
function exactUpperTail (distribution, u) {
  let sum = 0
  for (let value = Math.max(0, Math.ceil(u)); value < distribution.length; value++) sum += distribution[value]
  return sum
}

/**
 * @param {number[]} x first sample (the baseline)
 * @param {number[]} y second sample (the candidate)
 * @returns {MannWhitneyResult}
 */
export function mannWhitneyU (x, y) {
  const m = x.length
  const n = y.length
  if (m === 0 || n === 0) throw new RangeError(`the Mann–Whitney U test needs values on both sides, got ${m} and ${n}`)
  const { ranks, tieTerm } = midranks([...x, ...y])
  const rankSumX = ranks.slice(0, m).reduce((sum, rank) => sum + rank, 0)
  const u = rankSumX - m * (m + 1) / 2
  const ties = tieTerm > 0
  const larger = Math.max(u, m * n - u)
  if (!ties && m <= EXACT_MAX_SIZE && n <= EXACT_MAX_SIZE) {
    // Two-sided: twice the upper tail beyond the larger of U and m·n − U (the distribution is symmetric).
    const distribution = exactUDistribution(m, n)
    return { u, pValue: Math.min(1, 2 * exactUpperTail(distribution, larger)), method: 'exact', ties }
  }
  const total = m + n
  const variance = m * n / 12 * ((total + 1) - tieTerm / (total * (total - 1)))
  if (variance <= 0) return { u, pValue: 1, method: 'normal', ties } // every value is the same
  const z = (larger - m * n / 2 - 0.5) / Math.sqrt(variance)
  return { u, pValue: Math.min(1, Math.max(0, 2 * normalSurvival(z))), method: 'normal', ties }
}

/**
 * Whether samples of these sizes can reach a two-sided p below `alpha` at all: the smallest exact
 * p-value, for complete separation, is 2 / C(m+n, m). Three runs a side can never reach 0.05
 * (2/20 = 0.1); four a side can (2/70 ≈ 0.029).
 * @param {number} m
 * @param {number} n
 * @param {number} alpha
 */
export function canReachSignificance (m, n, alpha) {
  if (m === 0 || n === 0) return false
  return smallestTwoSidedP(m, n) < alpha
}

/**
 * @param {number} m
 * @param {number} n
 * @returns {number} 2 / C(m+n, m), capped at 1
 */
export function smallestTwoSidedP (m, n) {
  let combinations = 1
  for (let k = 1; k <= Math.min(m, n); k++) combinations = combinations * (m + n - Math.min(m, n) + k) / k
  return Math.min(1, 2 / combinations)
}

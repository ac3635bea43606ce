// @ts-check
import { midranks } from './midranks.js'
import { normalSurvival } from './normal-distribution.js'

/**
 * The Wilcoxon signed-rank test, two-sided, on paired differences: does the candidate tend to
 * differ from the baseline within the same round? When the two sides were run in alternating
 * rounds (as `compare-commits` does), a drift of the machine that slows one round slows both of its
 * runs; pairing them cancels it, where the Mann–Whitney U test counts it as noise.
 *
 * Zero differences are dropped (Wilcoxon's method, scipy's `zero_method='wilcox'`).
 * - exact: the exact distribution of W+, used when no |difference| ties, none is zero and there are
 *   at most {@link EXACT_MAX_PAIRS} pairs (scipy's `method='exact'`).
 * - normal: the normal approximation with the tie correction of the variance and a continuity
 *   correction (scipy's `method='asymptotic'`, `correction=True`) otherwise.
 */

/** Most pairs for which the exact distribution is computed (1,275 sums × 50 steps). */
export const EXACT_MAX_PAIRS = 50

/**
 * @typedef {object} SignedRankResult
 * @property {number} w W+: the sum of the ranks of |difference| over the positive differences
 * @property {number} pValue two-sided
 * @property {'exact' | 'normal'} method
 * @property {number} pairs the pairs tested (zero differences dropped)
 */

/**
 * The exact null distribution of W+ for n pairs: P(W+ = w) for w = 0 … n(n+1)/2, each rank k
 * counting with probability one half: P[n](w) = ½·P[n−1](w) + ½·P[n−1](w − n).
 * @param {number} n
 * @returns {Float64Array}
 */
export function exactSignedRankDistribution (n) {
  let distribution = Float64Array.of(1)
  for (let rank = 1; rank <= n; rank++) {
    const next = new Float64Array(distribution.length + rank)
    for (let w = 0; w < distribution.length; w++) {
      next[w] += distribution[w] / 2
      next[w + rank] += distribution[w] / 2
    }
    distribution = next
  }
  return distribution
}

/**
 * @param {number[]} differences one per pair, candidate − baseline (on whatever scale is tested)
 * @returns {SignedRankResult}
 */
export function wilcoxonSignedRank (differences) {
  const nonZero = differences.filter((difference) => difference !== 0)
  const n = nonZero.length
  if (n === 0) return { w: 0, pValue: 1, method: 'exact', pairs: 0 }
  const { ranks, tieTerm } = midranks(nonZero.map(Math.abs))
  const w = ranks.reduce((sum, rank, index) => sum + (nonZero[index] > 0 ? rank : 0), 0)
  const mean = n * (n + 1) / 4
  const distance = Math.abs(w - mean)
  if (tieTerm === 0 && n === differences.length && n <= EXACT_MAX_PAIRS) {
    // Two-sided: twice the upper tail beyond the farther of W+ and W− (the distribution is symmetric).
    const distribution = exactSignedRankDistribution(n)
    let tail = 0
    for (let value = Math.ceil(mean + distance); value < distribution.length; value++) tail += distribution[value]
    return { w, pValue: Math.min(1, 2 * tail), method: 'exact', pairs: n }
  }
  const variance = n * (n + 1) * (2 * n + 1) / 24 - tieTerm / 48
  if (variance <= 0 || distance === 0) return { w, pValue: 1, method: 'normal', pairs: n }
  const z = Math.abs(distance - 0.5) / Math.sqrt(variance)
  return { w, pValue: Math.min(1, 2 * normalSurvival(z)), method: 'normal', pairs: n }
}

/**
 * The smallest two-sided p-value n pairs can give: all differences of one sign, 2 / 2ⁿ. Five pairs
 * can never reach 0.05 (0.0625); six can (0.03125).
 * @param {number} n
 */
export function smallestSignedRankP (n) {
  return Math.min(1, 2 / 2 ** n)
}

/**
 * The fewest pairs whose smallest p-value is below alpha: 6 at 0.05, 8 at 0.01.
 * @param {number} alpha
 */
export function pairsNeeded (alpha) {
  let n = 1
  while (smallestSignedRankP(n) >= alpha) n++
  return n
}

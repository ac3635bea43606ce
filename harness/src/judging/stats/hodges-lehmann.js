// @ts-check
import { exactUDistribution, EXACT_MAX_SIZE } from './mann-whitney.js'
import { midranks } from './midranks.js'
import { normalUpperQuantile } from './normal-distribution.js'

/**
 * The Hodges–Lehmann estimate of the ratio candidate / baseline, with its distribution-free
 * confidence interval (Moses; Bauer 1972; R's `wilcox.test(conf.int = TRUE)`), on log values so
 * that the shift is a factor: a slowdown scales req/s, it does not subtract a constant.
 *
 * The estimate is the median of all m·n ratios y_j / x_i. The interval is the set of ratios the
 * two-sided Mann–Whitney test at level alpha would not reject: between the k-th smallest and the
 * k-th largest of those ratios, k − 1 being the largest u with P(U ≤ u) ≤ alpha / 2. So the
 * interval and the test never disagree (a significant change is one whose interval excludes 1),
 * it holds its level with a handful of repeats (where a percentile bootstrap of medians, built
 * from a few distinct values, is too narrow), and it needs no random resampling.
 *
 * @typedef {object} RatioEstimate
 * @property {number} ratio the Hodges–Lehmann estimate of candidate / baseline
 * @property {[number, number] | null} interval of the ratio; null when the sizes are too small
 *   for any interval at this level (C(m+n, m) < 2 / alpha)
 * @property {number | null} coverage the interval's actual confidence (≥ 1 − alpha when exact)
 */

/**
 * @param {number[]} baseline values > 0
 * @param {number[]} candidate values > 0
 * @param {{ alpha: number }} options
 * @returns {RatioEstimate}
 */
export function hodgesLehmannRatio (baseline, candidate, { alpha }) {
  const m = baseline.length
  const n = candidate.length
  if (m === 0 || n === 0) throw new RangeError(`a Hodges–Lehmann estimate needs values on both sides, got ${m} and ${n}`)
  if ([...baseline, ...candidate].some((value) => !(value > 0))) throw new RangeError('a ratio estimate needs values above 0')
  const logBaseline = baseline.map(Math.log)
  const differences = new Float64Array(m * n)
  let position = 0
  for (const logY of candidate.map(Math.log)) {
    for (const logX of logBaseline) differences[position++] = logY - logX
  }
  differences.sort()
  const total = differences.length
  const middle = total % 2 === 1
    ? differences[(total - 1) / 2]
    : (differences[total / 2 - 1] + differences[total / 2]) / 2
  const critical = criticalU(baseline, candidate, alpha)
  if (critical === null) return { ratio: Math.exp(middle), interval: null, coverage: null }
  const k = critical.u + 1
  return {
    ratio: Math.exp(middle),
    interval: [Math.exp(differences[k - 1]), Math.exp(differences[total - k])],
    coverage: critical.coverage
  }
}

/**
 * The largest u with P(U ≤ u) ≤ alpha / 2, exactly (no ties, sizes up to EXACT_MAX_SIZE, as the
 * test) or by the normal approximation with the tie-corrected variance and a continuity correction.
 * @param {number[]} x @param {number[]} y @param {number} alpha
 * @returns {{ u: number, coverage: number | null } | null} null when even u = 0 is too likely
 */
function criticalU (x, y, alpha) {
  const m = x.length
  const n = y.length
  const { tieTerm } = midranks([...x, ...y])
  if (tieTerm === 0 && m <= EXACT_MAX_SIZE && n <= EXACT_MAX_SIZE) {
    const critical = lowerCriticalValue(exactUDistribution(m, n), alpha)
    return critical && { u: critical.value, coverage: critical.coverage }
  }
  const total = m + n
  const variance = m * n / 12 * ((total + 1) - tieTerm / (total * (total - 1)))
  if (variance <= 0) return null
  const u = Math.floor(m * n / 2 - normalUpperQuantile(alpha / 2) * Math.sqrt(variance) - 0.5)
  return u < 0 ? null : { u, coverage: null }
}

/**
 * The largest value v of a statistic, symmetric under the null and counted from 0, with
 * P(S ≤ v) ≤ alpha / 2; the interval between the (v+1)-th smallest and (v+1)-th largest estimates
 * then covers at least 1 − alpha.
 * @param {Float64Array} distribution P(S = s) for s = 0, 1, …
 * @param {number} alpha
 * @returns {{ value: number, coverage: number } | null} null when even P(S = 0) exceeds alpha / 2
 */
export function lowerCriticalValue (distribution, alpha) {
  let cumulative = 0
  let value = -1
  while (value + 1 < distribution.length && cumulative + distribution[value + 1] <= alpha / 2) {
    value += 1
    cumulative += distribution[value]
  }
  return value < 0 ? null : { value, coverage: 1 - 2 * cumulative }
}

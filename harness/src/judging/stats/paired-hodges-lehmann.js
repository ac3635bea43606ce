// @ts-check
import { lowerCriticalValue } from './hodges-lehmann.js'
import { midranks } from './midranks.js'
import { normalUpperQuantile } from './normal-distribution.js'
import { EXACT_MAX_PAIRS, exactSignedRankDistribution } from './wilcoxon-signed-rank.js'

/**
 * The paired Hodges–Lehmann estimate of the ratio candidate / baseline and its distribution-free
 * interval (Tukey's Walsh averages; R's `wilcox.test(paired = TRUE, conf.int = TRUE)`), on logs:
 * from the per-pair log ratios d, the estimate is the median of the n(n+1)/2 Walsh averages
 * (dᵢ + dⱼ) / 2, i ≤ j, and the interval runs from the (c+1)-th smallest to the (c+1)-th largest of
 * them, c the largest w with P(W+ ≤ w) ≤ alpha / 2: the shifts the signed-rank test does not reject.
 *
 * @param {number[]} baseline values > 0, in round order
 * @param {number[]} candidate values > 0, the same rounds in the same order
 * @param {{ alpha: number }} options
 * @returns {import('./hodges-lehmann.js').RatioEstimate}
 */
export function pairedHodgesLehmannRatio (baseline, candidate, { alpha }) {
  const n = baseline.length
  if (n === 0 || candidate.length !== n) {
    throw new RangeError(`a paired estimate needs the same number of runs on both sides, got ${n} and ${candidate.length}`)
  }
  if ([...baseline, ...candidate].some((value) => !(value > 0))) throw new RangeError('a ratio estimate needs values above 0')
  const logRatios = candidate.map((value, index) => Math.log(value) - Math.log(baseline[index]))
  const walsh = new Float64Array(n * (n + 1) / 2)
  let position = 0
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) walsh[position++] = (logRatios[i] + logRatios[j]) / 2
  }
  walsh.sort()
  const total = walsh.length
  const middle = total % 2 === 1 ? walsh[(total - 1) / 2] : (walsh[total / 2 - 1] + walsh[total / 2]) / 2
  const critical = criticalW(logRatios, alpha)
  if (critical === null) return { ratio: Math.exp(middle), interval: null, coverage: null }
  return {
    ratio: Math.exp(middle),
    interval: [Math.exp(walsh[critical.w]), Math.exp(walsh[total - 1 - critical.w])],
    coverage: critical.coverage
  }
}

/**
 * The largest w with P(W+ ≤ w) ≤ alpha / 2: exact (no tied or zero |d|, up to EXACT_MAX_PAIRS, as
 * the test) or by the normal approximation with the tie-corrected variance and a continuity correction.
 * @param {number[]} differences @param {number} alpha
 * @returns {{ w: number, coverage: number | null } | null} null when even w = 0 is too likely
 */
function criticalW (differences, alpha) {
  const n = differences.length
  const { tieTerm } = midranks(differences.map(Math.abs))
  if (tieTerm === 0 && !differences.includes(0) && n <= EXACT_MAX_PAIRS) {
    const critical = lowerCriticalValue(exactSignedRankDistribution(n), alpha)
    return critical && { w: critical.value, coverage: critical.coverage }
  }
  const variance = n * (n + 1) * (2 * n + 1) / 24 - tieTerm / 48
  if (variance <= 0) return null
  const w = Math.floor(n * (n + 1) / 4 - normalUpperQuantile(alpha / 2) * Math.sqrt(variance) - 0.5)
  return w < 0 ? null : { w, coverage: null }
}

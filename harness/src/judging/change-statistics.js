// @ts-check
import { median } from 'simple-statistics'
import { bootstrapMedianInterval } from './stats/bootstrap.js'
import { hodgesLehmannRatio } from './stats/hodges-lehmann.js'
import { canReachSignificance, mannWhitneyU, smallestTwoSidedP } from './stats/mann-whitney.js'
import { pairedHodgesLehmannRatio } from './stats/paired-hodges-lehmann.js'
import { pairsNeeded, smallestSignedRankP, wilcoxonSignedRank } from './stats/wilcoxon-signed-rank.js'
import { roundToFixed } from '../platform/util/numbers.js'

/**
 * @typedef {object} SideFigures one side's values of one metric, one per repeat
 * @property {number[]} runs in repeat order
 * @property {number} median
 * @property {[number, number] | null} ci95 percentile-bootstrap interval of the median (as `dyno run`
 *   reports it), null below 2 runs
 *
 * @typedef {object} MetricChange
 * @property {SideFigures} baseline
 * @property {SideFigures} candidate
 * @property {number} changePercent the Hodges–Lehmann estimate of candidate / baseline − 1, in percent
 *   (with one run a side: the plain ratio); paired: from the per-round ratios
 * @property {[number, number] | null} ci95Percent its distribution-free interval; null with too few repeats
 * @property {ChangeTest | null} test null with too few repeats
 * @property {boolean | null} significant p < alpha; null with too few repeats
 * @property {boolean} enoughRepeats whether these run counts can show significance at all
 *   (Mann–Whitney: C(m+n, m) ≥ 2 / alpha, e.g. 4 and 4, or 3 and 5; signed-rank: pairsNeeded(alpha) pairs, 6 at 0.05)
 * @property {string | null} unpairedBecause why runs asked to be paired were compared as independent samples
 *
 * @typedef {{ name: 'mann-whitney-u', method: 'exact' | 'normal', u: number, pValue: number }
 *   | { name: 'wilcoxon-signed-rank', method: 'exact' | 'normal', w: number, pairs: number, pValue: number }} ChangeTest
 */

/**
 * @param {number[]} values
 * @param {{ seed: number, digits: number }} options
 * @returns {SideFigures}
 */
export function sideFigures (values, { seed, digits }) {
  return {
    runs: values.map((value) => roundToFixed(value, digits)),
    median: roundToFixed(median(values), digits),
    ci95:
      values.length < 2
        ? null
        : /** @type {[number, number]} */ (bootstrapMedianInterval(values, { seed }).map((value) => roundToFixed(value, digits)))
  }
}

/**
 * How one metric changed from the baseline's repeats to the candidate's: the Mann–Whitney U test
 * over the repeats and the Hodges–Lehmann ratio with its interval (see hodges-lehmann.js for why),
 * or, for runs made in alternating rounds and given in round order, the Wilcoxon signed-rank test
 * over the per-round ratios and their paired Hodges–Lehmann estimate.
 * @param {number[]} baseline one value per repeat, all > 0
 * @param {number[]} candidate
 * @param {{ alpha: number, seeds: [number, number], digits: number, paired?: boolean }} options seeds: of each
 *   side's bootstrap interval (its run's seed); digits: of the side figures; paired: the i-th values
 *   of both sides come from the same round
 * @returns {MetricChange}
 */
export function metricChange (baseline, candidate, { alpha, seeds, digits, paired = false }) {
  const unpairedBecause = paired ? whyNotPaired(baseline.length, candidate.length, alpha) : null
  const pairedTest = paired && unpairedBecause === null
  const enoughRepeats = pairedTest || canReachSignificance(baseline.length, candidate.length, alpha)
  const estimate = pairedTest
    ? pairedHodgesLehmannRatio(baseline, candidate, { alpha })
    : hodgesLehmannRatio(baseline, candidate, { alpha })
  const toPercent = (/** @type {number} */ ratio) => roundToFixed((ratio - 1) * 100, 2)
  /** @type {ChangeTest | null} */
  let test = null
  if (pairedTest) {
    const result = wilcoxonSignedRank(candidate.map((value, index) => Math.log(value) - Math.log(baseline[index])))
    test = {
      name: 'wilcoxon-signed-rank',
      method: result.method,
      w: result.w,
      pairs: result.pairs,
      pValue: Number(result.pValue.toPrecision(4))
    }
  } else if (enoughRepeats) {
    const result = mannWhitneyU(baseline, candidate)
    test = { name: 'mann-whitney-u', method: result.method, u: result.u, pValue: Number(result.pValue.toPrecision(4)) }
  }
  return {
    baseline: sideFigures(baseline, { seed: seeds[0], digits }),
    candidate: sideFigures(candidate, { seed: seeds[1], digits }),
    changePercent: toPercent(estimate.ratio),
    ci95Percent: enoughRepeats && estimate.interval ? [toPercent(estimate.interval[0]), toPercent(estimate.interval[1])] : null,
    test,
    significant: test ? test.pValue < alpha : null,
    enoughRepeats,
    unpairedBecause
  }
}

/**
 * Why runs asked to be paired go to the Mann–Whitney test instead, or null when they can be paired.
 * @param {number} m baseline runs
 * @param {number} n candidate runs
 * @param {number} alpha
 * @returns {string | null}
 */
function whyNotPaired (m, n, alpha) {
  if (m !== n) return `the sides have ${m} and ${n} runs, so they cannot be paired round by round`
  if (m < pairsNeeded(alpha)) {
    return `${m} pair${m === 1 ? '' : 's'} cannot reach p < ${alpha} in the signed-rank test ` +
      `(its smallest p is ${Number(smallestSignedRankP(m).toPrecision(2))}; ` +
      `${pairsNeeded(alpha)} pairs are needed)`
  }
  return null
}

/**
 * Why a cell gets the point change only.
 * @param {number} m baseline values
 * @param {number} n candidate values
 * @param {number} alpha
 * @param {'run' | 'window'} [unit] what a value is: a run's, or a counted window's
 */
export function tooFewRepeatsReason (m, n, alpha, unit = 'run') {
  return (
    `too few repeats for a test: ${m} baseline and ${n} candidate ${unit}${n === 1 ? '' : 's'}; the Mann–Whitney U test cannot reach ` +
    `p < ${alpha} with them (its smallest p is ${Number(smallestTwoSidedP(m, n).toPrecision(2))}): ` +
    `at least ${smallestSidesFor(alpha)} ${unit}s a side are needed; ` +
    'the point change only'
  )
}

/**
 * The fewest values a side for which the Mann–Whitney U test can reach p < alpha with equal sides.
 * @param {number} alpha @returns {number}
 */
export function smallestSidesFor (alpha) {
  let size = 1
  while (!canReachSignificance(size, size, alpha)) size++
  return size
}

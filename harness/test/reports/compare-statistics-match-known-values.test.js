// @ts-check
import { describe, expect, it } from 'vitest'
import { hodgesLehmannRatio } from '../../src/judging/stats/hodges-lehmann.js'
import { canReachSignificance, exactUDistribution, mannWhitneyU, smallestTwoSidedP } from '../../src/judging/stats/mann-whitney.js'
import { normalSurvival, normalUpperQuantile } from '../../src/judging/stats/normal-distribution.js'
import { metricChange } from '../../src/judging/change-statistics.js'
import { verdictOf } from '../../src/judging/verdict.js'

// The reference values were computed with scipy 1.17.1 (python 3.11):
//   scipy.stats.mannwhitneyu(x, y, method='exact' | 'asymptotic', use_continuity=True, alternative='two-sided')
// and, for the exact distribution and the Hodges–Lehmann intervals, by enumerating every one of the
// C(m+n, m) ways to split the pooled ranks (independent of the recurrence under test), then taking
// the k-th smallest and k-th largest of the m·n ratios y/x, k − 1 the largest u with P(U ≤ u) ≤ 0.025.

const CASES = {
  fiveVsFive: {
    x: [10100, 9900, 10050, 10400, 9800],
    y: [9500, 9600, 9450, 9700, 10000],
    u: 23,
    p: 0.031746031746031744,
    ratio: 0.960396039603961,
    interval: [0.9230769230769231, 0.9950248756218911],
    coverage: 0.9682539682539683
  },
  fourVsFourSeparated: {
    x: [2010.5, 1998.2, 2004.9, 2001.1],
    y: [1850.3, 1861.7, 1849.9, 1855.0],
    u: 16,
    p: 0.02857142857142857,
    ratio: 0.925508150938454,
    interval: [0.9201193732902265, 0.9316885196677012],
    coverage: 0.9714285714285714
  },
  threeVsFive: {
    x: [5.1, 4.9, 5.3],
    y: [5.6, 5.0, 5.8, 6.1, 5.9],
    u: 2,
    p: 0.14285714285714285,
    ratio: 1.1372549019607843,
    interval: [0.9433962264150944, 1.2448979591836733],
    coverage: 0.9642857142857143
  },
  sevenVsSix: {
    x: [31.2, 29.8, 30.5, 33.1, 28.7, 30.9, 31.7],
    y: [30.1, 32.4, 34.0, 33.3, 31.9, 35.2],
    u: 7,
    p: 0.05128205128205128,
    ratio: 1.0653741491233324,
    interval: [0.9868852459016392, 1.1391585760517802],
    coverage: 0.965034965034965
  }
}

/** @param {number} count @param {number} offset @param {number} multiplier @param {number} modulus @param {number} [scale] */
const spread = (count, offset, multiplier, modulus, scale = 1) =>
  Array.from({ length: count }, (_, index) => offset + ((index + 1) * multiplier % modulus) * scale)

describe('Mann–Whitney U against scipy', () => {
  it.each(Object.entries(CASES))('exact, no ties: %s', (_, { x, y, u, p }) => {
    const result = mannWhitneyU(x, y)
    expect(result.method).toBe('exact')
    expect(result.u).toBe(u)
    expect(result.pValue).toBeCloseTo(p, 14)
  })

  it('exact with 10 and 12 runs', () => {
    const result = mannWhitneyU(spread(10, 1000, 7919, 211, 1.013), spread(12, 1030, 104729, 197, 0.991))
    expect(result).toMatchObject({ method: 'exact', u: 34 })
    expect(result.pValue).toBeCloseTo(0.09308957296573396, 14)
  })

  it('normal approximation with the tie correction when values tie', () => {
    const result = mannWhitneyU([1, 2, 2, 3, 4], [2, 3, 5, 6, 6, 7])
    expect(result).toMatchObject({ method: 'normal', u: 4.5, ties: true })
    expect(result.pValue).toBeCloseTo(0.06414661873440437, 13)
  })

  it('normal approximation for samples above 50, with and without ties', () => {
    const tied = mannWhitneyU(spread(60, 1000, 7919, 211), spread(55, 1020, 104729, 197))
    expect(tied).toMatchObject({ method: 'normal', u: 1453, ties: true })
    expect(tied.pValue).toBeCloseTo(0.271232858124946, 13)
    const distinct = mannWhitneyU(Array.from({ length: 60 }, (_, i) => 1000 + 3 * i), Array.from({ length: 55 }, (_, j) => 1032 + 3 * j))
    expect(distinct).toMatchObject({ method: 'normal', u: 1225, ties: false })
    expect(distinct.pValue).toBeCloseTo(0.017466219103968242, 13)
  })

  it('is 1 when every value is the same', () => {
    expect(mannWhitneyU([5, 5, 5], [5, 5, 5, 5]).pValue).toBe(1)
  })

  it('has the exact null distribution of U, counted by enumeration (6 and 7 values: 1,716 splits)', () => {
    const counts = [
      1, 1, 2, 3, 5, 7, 11, 14, 19, 24, 31, 37, 46, 52, 61, 68, 76, 81, 88, 90, 94,
      94, 94, 90, 88, 81, 76, 68, 61, 52, 46, 37, 31, 24, 19, 14, 11, 7, 5, 3, 2, 1, 1
    ]
    const distribution = Array.from(exactUDistribution(6, 7))
    expect(distribution).toHaveLength(counts.length)
    distribution.forEach((probability, u) => expect(probability * 1716).toBeCloseTo(counts[u], 9))
  })

  it('knows when the repeats are too few to ever reach p < 0.05', () => {
    expect(smallestTwoSidedP(3, 3)).toBeCloseTo(0.1, 15)
    expect(canReachSignificance(3, 3, 0.05)).toBe(false)
    expect(canReachSignificance(3, 4, 0.05)).toBe(false) // 2/35 = 0.057
    expect(canReachSignificance(3, 5, 0.05)).toBe(true) // 2/56 = 0.036
    expect(canReachSignificance(4, 4, 0.05)).toBe(true) // 2/70 = 0.029
    expect(canReachSignificance(1, 30, 0.05)).toBe(false)
    expect(canReachSignificance(2, 8, 0.05)).toBe(true) // 2/45
  })
})

describe('Hodges–Lehmann ratio and its interval', () => {
  it.each(Object.entries(CASES))('matches the enumerated reference: %s', (_, { x, y, ratio, interval, coverage }) => {
    const estimate = hodgesLehmannRatio(x, y, { alpha: 0.05 })
    expect(estimate.ratio).toBeCloseTo(ratio, 12)
    expect(estimate.interval?.[0]).toBeCloseTo(interval[0], 12)
    expect(estimate.interval?.[1]).toBeCloseTo(interval[1], 12)
    expect(estimate.coverage).toBeCloseTo(coverage, 12)
  })

  it('never disagrees with the test: the interval excludes 1 exactly when p < 0.05', () => {
    for (const { x, y } of Object.values(CASES)) {
      const { interval } = hodgesLehmannRatio(x, y, { alpha: 0.05 })
      const excludesOne = interval !== null && (interval[0] > 1 || interval[1] < 1)
      expect(excludesOne).toBe(mannWhitneyU(x, y).pValue < 0.05)
    }
  })

  it('is the plain ratio with one run a side, with no interval', () => {
    expect(hodgesLehmannRatio([1000], [900], { alpha: 0.05 })).toEqual({ ratio: expect.closeTo(0.9, 12), interval: null, coverage: null })
    expect(hodgesLehmannRatio([100, 101, 102], [90, 91, 92], { alpha: 0.05 })).toMatchObject({
      ratio: expect.closeTo(0.9009900990099006, 12),
      interval: null
    })
  })

  it('uses the normal approximation above 50 runs a side and still brackets the estimate', () => {
    const x = Array.from({ length: 60 }, (_, i) => 1000 + 3 * i)
    const y = x.map((value) => value * 0.9)
    const { ratio, interval } = hodgesLehmannRatio(x, y, { alpha: 0.05 })
    expect(ratio).toBeCloseTo(0.9, 12)
    expect(interval?.[0]).toBeLessThan(0.9)
    expect(interval?.[1]).toBeGreaterThan(0.9)
  })
})

describe('normal distribution', () => {
  it('matches scipy.stats.norm', () => {
    expect(normalSurvival(1.96)).toBeCloseTo(0.024997895148220435, 15)
    expect(normalSurvival(-1)).toBeCloseTo(0.8413447460685429, 15)
    expect(normalSurvival(6) / 9.865876450376946e-10).toBeCloseTo(1, 12)
    expect(normalUpperQuantile(0.025)).toBeCloseTo(1.9599639845400545, 12)
  })
})

describe('change and verdict', () => {
  it('reports the change in percent with its interval and the test, or the point change alone with too few repeats', () => {
    const { x, y } = CASES.fiveVsFive
    const change = metricChange(x, y, { alpha: 0.05, seeds: [1, 2], digits: 1 })
    expect(change).toMatchObject({
      changePercent: -3.96,
      ci95Percent: [-7.69, -0.5],
      test: { name: 'mann-whitney-u', method: 'exact', u: 23, pValue: 0.03175 },
      significant: true,
      enoughRepeats: true
    })
    expect(change.baseline).toMatchObject({ runs: x, median: 10050 })
    expect(change.candidate.median).toBe(9600)
    const few = metricChange([100, 101, 102], [90, 91, 92], { alpha: 0.05, seeds: [1, 1], digits: 1 })
    expect(few).toMatchObject({ changePercent: -9.9, ci95Percent: null, test: null, significant: null, enoughRepeats: false })
  })

  it.each([
    [{ significant: true, changePercent: -9.1 }, true, 'regressed'],
    [{ significant: true, changePercent: 9.1 }, true, 'improved'],
    [{ significant: true, changePercent: -4.9 }, true, 'unchanged'], // below the threshold
    [{ significant: false, changePercent: -30 }, true, 'unchanged'], // large but not significant
    [{ significant: true, changePercent: 12 }, false, 'regressed'], // p99 up: smaller is better
    [{ significant: true, changePercent: -5 }, false, 'improved'] // exactly the threshold counts
  ])('%j (bigger is better: %s) is %s', (change, biggerIsBetter, verdict) => {
    expect(verdictOf(change, { thresholdPercent: 5, biggerIsBetter })).toBe(verdict)
  })
})

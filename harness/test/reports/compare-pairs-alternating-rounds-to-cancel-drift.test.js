// @ts-check
// Runs made in alternating rounds (compare-commits) pair up: a drift of the machine that slows one
// round slows both of its runs, and the Wilcoxon signed-rank test over the per-round ratios cancels
// it, where the Mann–Whitney U test over the pooled runs sees only noise.
import { beforeAll, describe, expect, it } from 'vitest'
import { metricChange } from '../../src/judging/change-statistics.js'
import { pairedHodgesLehmannRatio } from '../../src/judging/stats/paired-hodges-lehmann.js'
import {
  exactSignedRankDistribution,
  pairsNeeded,
  smallestSignedRankP,
  wilcoxonSignedRank
} from '../../src/judging/stats/wilcoxon-signed-rank.js'
import { EIGHT_REPEATS, runWithFigures } from '../support/compare-inputs.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runCli } from '../support/run-cli.js'

// The reference values were computed with scipy 1.17.1 (python 3.11) on the log ratios
// d = log(candidate) − log(baseline):
//   scipy.stats.wilcoxon(d, method='exact' | 'asymptotic', correction=True, zero_method='wilcox')
// W+ from scipy.stats.rankdata(|d|); the paired Hodges–Lehmann estimate and interval by listing the
// Walsh averages and enumerating all 2ⁿ sign vectors for the critical value (independent of the
// recurrence under test), c the largest w with P(W+ ≤ w) ≤ 0.025.
const CASES = {
  // A drift from round to round (1,460–2,105 req/s) much larger than the 8% slowdown of each round.
  eightRounds: {
    baseline: [2010, 1530, 2105, 1790, 1620, 2060, 1890, 1710],
    candidate: [1850, 1460, 1930, 1702, 1480, 1910, 1790, 1560],
    w: 0,
    p: 0.0078125,
    ratio: 0.9316072552118475,
    interval: [0.9145697830506663, 0.9506624187786055],
    coverage: 0.9609375
  },
  sixAllSlower: {
    baseline: [2000, 2100, 1900, 2050, 1950, 2020],
    candidate: [1900, 2000, 1850, 1930, 1900, 1950],
    w: 0,
    p: 0.03125,
    ratio: 0.9588418284841977,
    interval: [0.941463414634147, 0.9743589743589743],
    coverage: 0.96875
  },
  tenMixed: {
    baseline: [1000, 1010, 990, 1005, 1020, 980, 1000, 1015, 995, 1003],
    candidate: [1002, 1000, 985, 1011, 1010, 990, 996, 1001, 1000, 998],
    w: 20,
    p: 0.4921875,
    ratio: 0.9975830482330692,
    interval: [0.9910913524824628, 1.003511422894327],
    coverage: 0.951171875
  }
}

/** @param {number[]} baseline @param {number[]} candidate */
const logRatios = (baseline, candidate) => candidate.map((value, index) => Math.log(value) - Math.log(baseline[index]))

describe('Wilcoxon signed-rank against scipy', () => {
  it.each(Object.entries(CASES))('exact, no ties: %s', (_, { baseline, candidate, w, p }) => {
    const result = wilcoxonSignedRank(logRatios(baseline, candidate))
    expect(result).toMatchObject({ method: 'exact', w, pairs: baseline.length })
    expect(result.pValue).toBeCloseTo(p, 14)
  })

  it('normal approximation with the tie correction when |differences| tie, and zeros dropped', () => {
    expect(wilcoxonSignedRank([1, -1, 2, 3, 3, -4, 5, 6, 2, 7])).toMatchObject({ method: 'normal', w: 46.5, pairs: 10 })
    expect(wilcoxonSignedRank([1, -1, 2, 3, 3, -4, 5, 6, 2, 7]).pValue).toBeCloseTo(0.05884108838448915, 12)
    const withZero = wilcoxonSignedRank([0, 1, -2, 3, 4, 5, -6, 7])
    expect(withZero).toMatchObject({ method: 'normal', w: 20, pairs: 7 })
    expect(withZero.pValue).toBeCloseTo(0.35254213749971297, 12)
  })

  it('normal approximation above 50 pairs', () => {
    const differences = Array.from({ length: 60 }, (_, index) => ((index + 1) * 7919 % 211 - 100) / 10 + 0.3)
    const result = wilcoxonSignedRank(differences)
    expect(result).toMatchObject({ method: 'normal', w: 1019, pairs: 60 })
    expect(result.pValue).toBeCloseTo(0.44610114386181565, 12)
  })

  it('has the exact null distribution of W+, counted by enumerating all 2⁷ sign vectors', () => {
    const counts = new Array(29).fill(0)
    for (let signs = 0; signs < 2 ** 7; signs++) {
      let w = 0
      for (let rank = 1; rank <= 7; rank++) if (signs & (1 << (rank - 1))) w += rank
      counts[w] += 1
    }
    const distribution = exactSignedRankDistribution(7)
    expect(distribution.length).toBe(29)
    counts.forEach((count, w) => expect(distribution[w]).toBeCloseTo(count / 128, 15))
  })

  it('knows that 5 pairs can never reach p < 0.05 and 6 can', () => {
    expect(smallestSignedRankP(5)).toBe(0.0625)
    expect(smallestSignedRankP(6)).toBe(0.03125)
    expect(wilcoxonSignedRank([-1, -2, -3, -4, -5]).pValue).toBe(0.0625)
    expect(wilcoxonSignedRank([]).pValue).toBe(1)
    expect(pairsNeeded(0.05)).toBe(6)
    expect(pairsNeeded(0.01)).toBe(8)
  })
})

describe('paired Hodges–Lehmann ratio', () => {
  it.each(Object.entries(CASES))('matches the enumeration: %s', (_, { baseline, candidate, ratio, interval, coverage }) => {
    const estimate = pairedHodgesLehmannRatio(baseline, candidate, { alpha: 0.05 })
    expect(estimate.ratio).toBeCloseTo(ratio, 12)
    expect(estimate.interval?.[0]).toBeCloseTo(interval[0], 12)
    expect(estimate.interval?.[1]).toBeCloseTo(interval[1], 12)
    expect(estimate.coverage).toBeCloseTo(coverage, 12)
  })

  it('never disagrees with the test: the interval excludes 1 exactly when p < 0.05', () => {
    for (let trial = 1; trial <= 200; trial++) {
      const baseline = Array.from({ length: 6 + trial % 7 }, (_, index) => 1000 + ((index + 1) * 7919 * trial % 257))
      const candidate = baseline.map((value, index) => value * (1 + (((index + 3) * 104729 * trial % 61) - 30 + trial % 9 - 4) / 1000))
      const { interval } = pairedHodgesLehmannRatio(baseline, candidate, { alpha: 0.05 })
      const { pValue } = wilcoxonSignedRank(logRatios(baseline, candidate))
      const excludesOne = /** @type {[number, number]} */ (interval)[0] > 1 || /** @type {[number, number]} */ (interval)[1] < 1
      expect(excludesOne, `trial ${trial}: p ${pValue}, interval ${interval}`).toBe(pValue < 0.05)
    }
  })

  it('refuses sides of different lengths', () => {
    expect(() => pairedHodgesLehmannRatio([1, 2], [1], { alpha: 0.05 })).toThrow(/same number of runs on both sides, got 2 and 1/)
  })
})

describe('paired change', () => {
  const { baseline, candidate } = CASES.eightRounds
  const settings = { alpha: 0.05, seeds: /** @type {[number, number]} */ ([1, 2]), digits: 1 }

  it('finds the slowdown the drift hides from the unpaired test', () => {
    const unpaired = metricChange(baseline, candidate, settings)
    expect(unpaired.test?.name).toBe('mann-whitney-u')
    expect(unpaired.significant).toBe(false)
    const paired = metricChange(baseline, candidate, { ...settings, paired: true })
    expect(paired).toMatchObject({
      test: { name: 'wilcoxon-signed-rank', method: 'exact', w: 0, pairs: 8, pValue: 0.007813 },
      significant: true,
      changePercent: -6.84,
      ci95Percent: [-8.54, -4.93],
      unpairedBecause: null
    })
  })

  it('falls back to Mann–Whitney U, saying why, with fewer than 6 pairs or unequal counts', () => {
    const fivePairs = metricChange(baseline.slice(0, 5), candidate.slice(0, 5), { ...settings, paired: true })
    expect(fivePairs.test?.name).toBe('mann-whitney-u')
    expect(fivePairs.unpairedBecause).toMatch(
      /5 pairs cannot reach p < 0.05 in the signed-rank test \(its smallest p is 0.063; 6 pairs are needed\)/
    )
    const unequal = metricChange(baseline, candidate.slice(0, 7), { ...settings, paired: true })
    expect(unequal.test?.name).toBe('mann-whitney-u')
    expect(unequal.unpairedBecause).toBe('the sides have 8 and 7 runs, so they cannot be paired round by round')
    const strict = metricChange(baseline.slice(0, 7), candidate.slice(0, 7), { ...settings, alpha: 0.01, paired: true })
    expect(strict.unpairedBecause).toMatch(/7 pairs cannot reach p < 0.01 .*; 8 pairs are needed\)$/)
  })
})

describe('dyno compare --paired', () => {
  let baselineDir = ''
  let candidateDir = ''

  // Two copies of one real run of 8 repeats, with the figures of the eight drifting rounds.
  beforeAll(() => {
    const { baseline, candidate } = CASES.eightRounds
    baselineDir = runWithFigures(EIGHT_REPEATS, { requestsPerSec: baseline, p99Ms: baseline.map(() => 2) })
    candidateDir = runWithFigures(EIGHT_REPEATS, { requestsPerSec: candidate, p99Ms: candidate.map(() => 2.1) })
  })

  /** @param {string[]} args */
  async function compareJson (...args) {
    const result = await runCli(['compare', baselineDir, candidateDir, ...args, '--format', 'json'])
    expect(result.stderr).toBe('')
    const document = JSON.parse(result.stdout)
    expect(schemaErrors('compare', document)).toEqual([])
    return document
  }

  it('pairs the runs in the order they started and calls the drifting slowdown regressed', async () => {
    const document = await compareJson('--paired')
    expect(document.settings).toMatchObject({ paired: true, test: 'wilcoxon-signed-rank' })
    expect(document.rows[0]).toMatchObject({
      status: 'compared',
      verdict: 'regressed',
      requestsPerSec: { changePercent: -6.84, test: { name: 'wilcoxon-signed-rank', pairs: 8 }, significant: true }
    })
    // Each side swings by about 11.5% from round to round (CV), the per-round ratios by under 2%: no noise to warn of.
    expect(document.rows[0].notes.filter((/** @type {string} */ note) => note.includes('vary'))).toEqual([])
  })

  it('without --paired, treats them as independent samples and calls it unchanged', async () => {
    const document = await compareJson()
    expect(document.settings).toMatchObject({ paired: false, test: 'mann-whitney-u' })
    expect(document.rows[0]).toMatchObject({
      verdict: 'unchanged',
      requestsPerSec: { test: { name: 'mann-whitney-u' }, significant: false }
    })
    expect(document.rows[0].notes).toContain("the baseline's req/s vary from run to run by more than the threshold (CV 11.5%): " +
      'a noisy machine hides changes of that size')
  })

  it('names the paired test in the table and in github-action-benchmark output', async () => {
    const table = await runCli(['compare', baselineDir, candidateDir, '--paired'])
    expect(table.stdout).toMatch(/Wilcoxon signed-rank over the per-round ratios/)
    const gab = await runCli(['compare', baselineDir, candidateDir, '--paired', '--format', 'gab'])
    expect(JSON.parse(gab.stdout)[0].extra).toMatch(/p = 0\.008 \(Wilcoxon signed-rank, 8 pairs\): regressed$/)
  })
})

// @ts-check
import { describe, expect, it } from 'vitest'
import { createLatencyHistogram, encodeHistogram, latencySummaryMs, meanAndDeviationUs } from '../../src/load/latency-histogram.js'
import { mergedLatencyMs } from '../../src/records/merge-histograms.js'
import { bootstrapMedianInterval } from '../../src/judging/stats/bootstrap.js'
import { seededRandom, shuffled } from '../../src/judging/stats/seeded-random.js'

describe('bootstrap interval of the median', () => {
  it('is reproducible from its seed and brackets the median', () => {
    const values = [10_100, 9_900, 10_050, 10_400, 9_800, 10_000, 10_200]
    const interval = bootstrapMedianInterval(values, { seed: 42 })
    expect(bootstrapMedianInterval(values, { seed: 42 })).toEqual(interval)
    expect(interval[0]).toBeLessThanOrEqual(10_050)
    expect(interval[1]).toBeGreaterThanOrEqual(10_050)
    // A median's bootstrap interval lies within the sample's range.
    expect(interval[0]).toBeGreaterThanOrEqual(9_800)
    expect(interval[1]).toBeLessThanOrEqual(10_400)
  })

  it('collapses to the value when every run agrees', () => {
    expect(bootstrapMedianInterval([5, 5, 5, 5], { seed: 1 })).toEqual([5, 5])
  })

  it('matches the exact distribution for two values: 2.5% and 97.5% of {a, (a+b)/2, b}', () => {
    // Resampling [1, 3] gives medians 1 (p=1/4), 2 (1/2) and 3 (1/4): the 95% interval is [1, 3].
    expect(bootstrapMedianInterval([1, 3], { seed: 7 })).toEqual([1, 3])
  })

  it('refuses a single value', () => {
    expect(() => bootstrapMedianInterval([1], { seed: 1 })).toThrow(/at least 2 values, got 1/)
  })
})

describe('seeded shuffle', () => {
  it('is a permutation, reproducible from the seed, different for another seed', () => {
    const items = Array.from({ length: 20 }, (_, index) => index)
    const once = shuffled(items, seededRandom(3))
    expect([...once].sort((a, b) => a - b)).toEqual(items)
    expect(shuffled(items, seededRandom(3))).toEqual(once)
    expect(shuffled(items, seededRandom(4))).not.toEqual(once)
  })
})

describe('merged latency histograms', () => {
  it('gives the percentiles of all responses together, not the average of percentiles', () => {
    const fast = createLatencyHistogram()
    const slow = createLatencyHistogram()
    for (let index = 0; index < 900; index++) fast.recordValue(1000) // 1 ms
    for (let index = 0; index < 100; index++) slow.recordValue(50_000) // 50 ms
    const merged = mergedLatencyMs([encodeHistogram(fast), encodeHistogram(slow)])
    expect(merged?.p50).toBeCloseTo(1, 2)
    expect(merged?.p90).toBeCloseTo(1, 2)
    expect(merged?.p99).toBeCloseTo(50, 0)
    expect(merged?.max).toBeCloseTo(50, 0)
    // Averaging the two runs' p50s would say 25.5 ms; the merged p50 is 1 ms.
  })
})

describe('latency mean and deviation', () => {
  it('are what HdrHistogram gives, read in two passes over the buckets', () => {
    const histogram = createLatencyHistogram()
    const random = seededRandom(7)
    for (let index = 0; index < 20_000; index++) {
      histogram.recordValue(1 + Math.round(-Math.log(1 - random()) * 800 + (index % 97 === 0 ? 40_000 : 0)))
    }
    const { meanUs, stdevUs } = meanAndDeviationUs(histogram)
    expect(meanUs).toBe(histogram.mean)
    expect(stdevUs).toBeCloseTo(histogram.stdDeviation, 6)
    expect(latencySummaryMs(histogram)?.stdev).toBeCloseTo(histogram.stdDeviation / 1000, 3)
  })
})

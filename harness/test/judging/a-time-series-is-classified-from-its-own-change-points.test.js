// @ts-check
// The classification of a cell's series (Barrett et al.'s four classes and rules) on series whose shape is known: noise alone is flat,
// a cost that falls and stays is warm-up with its steady state where it settled, one that rises and stays is a slowdown, one that still
// moves in its last quarter has no steady state, a level that drifts within the band is one steady state, a throughput that steps
// down and stalls as issue 42 measured is never flat or warm-up, a stall before the steady quarter is passed over and one within it is
// not; and a series too short to judge is refused, naming the minimum.
import { describe, expect, it } from 'vitest'
import { classifySeries, MIN_SERIES_LENGTH } from '../../src/judging/series-classification.js'
import { seededRandom } from '../../src/judging/stats/seeded-random.js'

/** A cost (latency, time per request) in 250 ms windows. */
const COST = /** @type {const} */ ({ better: 'lower', windowsPerSecond: 4 })
/** A throughput in 250 ms windows. */
const RATE = /** @type {const} */ ({ better: 'higher', windowsPerSecond: 4 })

/** @param {[number, number][]} parts level and length of each part @param {number} sd @param {number} seed */
function series (parts, sd, seed) {
  const random = seededRandom(seed)
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
  return parts.flatMap(([level, length]) => Array.from({ length }, () => level + sd * normal()))
}

describe('a series classified from its own change points', () => {
  it('is flat when it holds one level', () => {
    for (let seed = 0; seed < 10; seed++) {
      expect(classifySeries(series([[5, 240]], 0.2, seed), COST)).toMatchObject({ classification: 'flat', changePoints: [], steadyFrom: 0 })
    }
  })

  it('is warm-up when its cost falls and stays, with its steady state from where it settled', () => {
    // Like express's latency: a slow first second, a second level, then steady from window 10.
    const result = classifySeries(series([[12, 4], [8, 6], [5, 230]], 0.1, 3), COST)
    expect(result.classification).toBe('warm-up')
    expect(Math.abs(Number(result.steadyFrom) - 10)).toBeLessThanOrEqual(2)
    expect(result.steadyLevel).toBeCloseTo(5, 0)
  })

  it('is a slowdown when its cost rises and stays, as a handler that keeps every request makes it', () => {
    const result = classifySeries(series([[5, 120], [6.5, 120]], 0.05, 5), COST)
    expect(result.classification).toBe('slowdown')
    expect(Math.abs(Number(result.steadyFrom) - 120)).toBeLessThanOrEqual(2)
  })

  it('has no steady state when it still moves in its last quarter, and is no slowdown when its last level is not its slowest', () => {
    const result = classifySeries(series([[5, 200], [14, 20], [9, 20]], 0.3, 9), COST)
    expect(result).toMatchObject({ classification: 'no steady state', steadyFrom: null, steadyLevel: null })
  })

  it('calls no change smaller than the noise, and counts levels within each other\'s band as one steady state', () => {
    expect(classifySeries(series([[5, 120], [5.02, 120]], 0.3, 11), COST).classification).toBe('flat')
    // A warm-up, then a level that moves by 6% twice (as a VM's speed drifts): still warm-up, steady from the end of the first level.
    const drifting = classifySeries(series([[15, 6], [5, 80], [5.3, 80], [5, 74]], 0.1, 13), COST)
    expect(drifting.classification).toBe('warm-up')
    expect(drifting.changePoints.length).toBeGreaterThanOrEqual(2)
    expect(drifting.steadyFrom).toBe(6)
  })

  it('never calls a throughput that steps down and stalls flat or warm-up, as the leak fixture\'s series of issue 42 did', () => {
    // 29,000 req/s for 6 s, a stall to 1,000 for 1.5 s, 13,000 after with stalls of 1.5-2 s, ending near 5,000: the shape the leak
    // fixture recorded on a fast day, which 583d91a called flat or warm-up in three runs of four.
    const parts = /** @type {[number, number][]} */ ([[29, 24], [1, 6], [13, 14], [1, 7], [13, 12], [1, 8], [5, 9]])
    const result = classifySeries(series(parts, 1, 21), RATE)
    expect(['slowdown', 'no steady state']).toContain(result.classification)
  })

  it('passes over a stall before the steady quarter, but not one within it', () => {
    // A warm-up, a level with one stall of a second in its middle: the steady state goes back across the stall.
    const once = classifySeries(series([[10, 4], [30, 60], [2, 4], [30, 92]], 0.6, 23), RATE)
    expect(once).toMatchObject({ classification: 'warm-up', steadyFrom: 4 })
    // The same stall in the last quarter: the series has not settled.
    const late = classifySeries(series([[10, 4], [30, 130], [2, 4], [30, 22]], 0.6, 23), RATE)
    expect(late.classification).toBe('no steady state')
  })

  it('counts a level lower than an earlier one by more than the band as a slowdown, whatever the windows\' scatter', () => {
    // Windows that scatter by ±15 % around 12,000 and then 8,500 req/s: the scatter is wide, the two levels are not one.
    const result = classifySeries(series([[4, 8], [12, 40], [8.5, 112]], 1.8, 29), RATE)
    expect(result.classification).toBe('slowdown')
    expect(Math.abs(Number(result.steadyFrom) - 48)).toBeLessThanOrEqual(3)
  })

  it('refuses a series shorter than its minimum, naming it', () => {
    expect(() => classifySeries(series([[5, MIN_SERIES_LENGTH - 1]], 0.1, 1), COST)).toThrowError(
      `the classification needs ${MIN_SERIES_LENGTH}`
    )
  })
})

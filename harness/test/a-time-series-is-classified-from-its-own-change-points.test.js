// @ts-check
// The classification of a cell's series (Barrett et al.'s four classes and rules) on series whose shape is known: noise alone is flat,
// a cost that falls and stays is warm-up with its steady state where it settled, one that rises and stays is a slowdown, one that still
// moves in its last quarter has no steady state, a level that drifts within each segment's band is one steady state; and a series too
// short to judge is refused, naming the minimum.
import { describe, expect, it } from 'vitest'
import { classifySeries, MIN_SERIES_LENGTH } from '../src/judging/series-classification.js'
import { seededRandom } from '../src/stats/seeded-random.js'

/** @param {[number, number][]} parts level and length of each part @param {number} sd @param {number} seed */
function series (parts, sd, seed) {
  const random = seededRandom(seed)
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
  return parts.flatMap(([level, length]) => Array.from({ length }, () => level + sd * normal()))
}

describe('a series classified from its own change points', () => {
  it('is flat when it holds one level', () => {
    for (let seed = 0; seed < 10; seed++) {
      expect(classifySeries(series([[5, 240]], 0.2, seed))).toMatchObject({ classification: 'flat', changePoints: [], steadyFrom: 0 })
    }
  })

  it('is warm-up when its cost falls and stays, with its steady state from where it settled', () => {
    // Like express's latency: a slow first second, a second level, then steady from window 10.
    const result = classifySeries(series([[12, 4], [8, 6], [5, 230]], 0.1, 3))
    expect(result.classification).toBe('warm-up')
    expect(Math.abs(Number(result.steadyFrom) - 10)).toBeLessThanOrEqual(2)
    expect(result.steadyLevel).toBeCloseTo(5, 0)
  })

  it('is a slowdown when its cost rises and stays, as a handler that keeps every request makes it', () => {
    const result = classifySeries(series([[5, 120], [6.5, 120]], 0.05, 5))
    expect(result.classification).toBe('slowdown')
    expect(Math.abs(Number(result.steadyFrom) - 120)).toBeLessThanOrEqual(2)
  })

  it('has no steady state when it still moves in its last quarter, and is no slowdown when its last level is not its slowest', () => {
    const result = classifySeries(series([[5, 200], [14, 20], [9, 20]], 0.3, 9))
    expect(result).toMatchObject({ classification: 'no steady state', steadyFrom: null, steadyLevel: null })
  })

  it('calls no change smaller than the noise, and counts levels within each other\'s band as one steady state', () => {
    expect(classifySeries(series([[5, 120], [5.02, 120]], 0.3, 11)).classification).toBe('flat')
    // A warm-up, then a level that moves by 6% twice (as a VM's speed drifts): still warm-up, steady from the end of the first level.
    const drifting = classifySeries(series([[15, 6], [5, 80], [5.3, 80], [5, 74]], 0.1, 13))
    expect(drifting.classification).toBe('warm-up')
    expect(drifting.changePoints.length).toBeGreaterThanOrEqual(2)
    expect(drifting.steadyFrom).toBe(6)
  })

  it('refuses a series shorter than its minimum, naming it', () => {
    expect(() => classifySeries(series([[5, MIN_SERIES_LENGTH - 1]], 0.1, 1))).toThrowError(`the classification needs ${MIN_SERIES_LENGTH}`)
  })
})

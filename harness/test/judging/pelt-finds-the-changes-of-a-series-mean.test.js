// @ts-check
// PELT's change points of a series' mean, on series whose changes are known: none in noise alone, each step where it was put,
// none closer than the minimum segment length, and the same segmentation as an exhaustive search of every one- and two-change
// split on short series.
import { describe, expect, it } from 'vitest'
import { peltChangePoints } from '../../src/judging/stats/pelt.js'
import { seededRandom } from '../../src/judging/stats/seeded-random.js'

/** Normal noise (Box–Muller) around the given means, seeded. @param {number[]} means @param {number} sd @param {number} seed */
function noisy (means, sd, seed) {
  const random = seededRandom(seed)
  return means.map((mean) => mean + sd * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random()))
}
const levels = (/** @type {[number, number][]} */ parts) => parts.flatMap(([level, length]) => Array(length).fill(level))

describe('PELT', () => {
  it('finds no change in noise alone, over many seeds', () => {
    const found = Array.from(
      { length: 50 },
      (_, seed) => peltChangePoints(noisy(levels([[100, 200]]), 5, seed), { minSegmentLength: 5 }).changePoints
    )
    // About 2% of such series are expected to show a change at the default penalty: 1 of 50, give or take.
    expect(found.filter((points) => points.length > 0).length).toBeLessThanOrEqual(3)
  })

  it('finds each step where it was put, within a window or two', () => {
    const series = noisy(levels([[100, 60], [80, 60], [82, 0], [120, 80]]), 4, 7)
    const { changePoints } = peltChangePoints(series, { minSegmentLength: 5 })
    expect(changePoints).toHaveLength(2)
    expect(Math.abs(changePoints[0] - 60)).toBeLessThanOrEqual(2)
    expect(Math.abs(changePoints[1] - 120)).toBeLessThanOrEqual(2)
  })

  it('keeps every segment at least the minimum length', () => {
    const series = levels([[10, 3], [50, 3], [10, 40]])
    for (const minSegmentLength of [1, 4, 10]) {
      const { changePoints } = peltChangePoints(series, { minSegmentLength, penalty: 1 })
      const bounds = [0, ...changePoints, series.length]
      for (let index = 1; index < bounds.length; index++) expect(bounds[index] - bounds[index - 1]).toBeGreaterThanOrEqual(minSegmentLength)
    }
  })

  it('agrees with an exhaustive search of every segmentation of up to two changes', () => {
    const cost = (/** @type {number[]} */ part) => {
      const mean = part.reduce((sum, value) => sum + value, 0) / part.length
      return part.reduce((sum, value) => sum + (value - mean) ** 2, 0)
    }
    for (let seed = 0; seed < 20; seed++) {
      const series = noisy(levels([[10, 12], [14 + seed % 3, 10], [9, 14]]), 1.5, seed)
      const penalty = 20
      let best = { value: cost(series), points: /** @type {number[]} */ ([]) }
      for (let a = 3; a <= series.length - 3; a++) {
        const one = cost(series.slice(0, a)) + cost(series.slice(a)) + penalty
        if (one < best.value) best = { value: one, points: [a] }
        for (let b = a + 3; b <= series.length - 3; b++) {
          const two = cost(series.slice(0, a)) + cost(series.slice(a, b)) + cost(series.slice(b)) + 2 * penalty
          if (two < best.value) best = { value: two, points: [a, b] }
        }
      }
      const found = peltChangePoints(series, { minSegmentLength: 3, penalty }).changePoints
      expect(found, `seed ${seed}`).toEqual(best.points)
    }
  })
})

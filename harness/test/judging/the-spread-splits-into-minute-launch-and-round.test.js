// @ts-check
// The noise decomposition's arithmetic (src/judging/stats/variance-components.js), on designs whose components are known exactly: each
// level's variance recovered from the mean squares without the level below it, an estimate below zero read as nothing, the launches
// and rounds that make a cell narrowest within a budget, and the ratio two such cells can be told apart at.
import { describe, expect, it } from 'vitest'
import { bestPlan, cellVariance, separableRatio, varianceComponents } from '../../src/judging/stats/variance-components.js'

/**
 * A 2 × 2 × 2 design: blocks at ±block, launches at ±launch within each block, rounds at ±round within each launch.
 * @param {{ block: number, launch: number, round: number }} effects
 */
const design = ({ block, launch, round }) => [block, -block].map((b) => [launch, -launch].map((l) => [round, -round].map((r) => b + l + r)))

describe('the spread split into its levels', () => {
  it('recovers each level from its mean square less what the level below puts into it', () => {
    // Rounds: 2·0.02² within each launch; launches: 2·0.05² − (2·0.02²)/2; blocks: 2·0.1² − (2·0.05²)/2.
    const components = varianceComponents(design({ block: 0.1, launch: 0.05, round: 0.02 }))
    expect(components.round).toBeCloseTo(0.0008, 12)
    expect(components.launch).toBeCloseTo(0.0046, 12)
    expect(components.block).toBeCloseTo(0.0175, 12)
  })

  it('reads a level that adds less than the level below explains as nothing', () => {
    const components = varianceComponents(design({ block: 0, launch: 0, round: 0.05 }))
    expect(components).toEqual({ round: expect.closeTo(0.005, 12), launch: 0, block: 0 })
  })

  it('refuses a design it cannot split: unbalanced, or a level measured once', () => {
    expect(() => varianceComponents([[[1, 2]], [[1, 2]]])).toThrow('at least 2 blocks, 2 launches and 2 rounds')
    expect(() => varianceComponents([[[1, 2], [1, 2]], [[1, 2], [1]]])).toThrow('balanced')
  })

  it('spends a budget where the noise is: more rounds when rounds are noisy and launches dear, more launches otherwise', () => {
    const even = { block: 0, launch: 0.0009, round: 0.0009 }
    // √(0.0009 · 1 / (0.0009 · 1)) = 1 round; 6 s pays for 3 launches of 2 s.
    expect(bestPlan(even, { budgetSec: 6, launchSec: 1, roundSec: 1 })).toEqual({
      launches: 3, rounds: 1, variance: expect.closeTo(0.0006, 12), spentSec: 6
    })
    // Rounds 16 times noisier than launches, a launch costing 4 rounds: √(16 · 4) = 8 rounds each.
    const roundsNoisy = { block: 0, launch: 0.0001, round: 0.0016 }
    expect(bestPlan(roundsNoisy, { budgetSec: 24, launchSec: 4, roundSec: 1 })).toMatchObject({ rounds: 8, launches: 2 })
    // Never fewer launches than an interval needs, even beyond the budget, and then no more rounds than the budget pays for.
    expect(bestPlan(even, { budgetSec: 1, launchSec: 1, roundSec: 1 })).toMatchObject({ launches: 2, rounds: 1 })
    expect(bestPlan(roundsNoisy, { budgetSec: 10, launchSec: 4, roundSec: 1 })).toMatchObject({ launches: 2, rounds: 1 })
  })

  it('gives the ratio a 95 % interval tells apart from the variance of each cell', () => {
    const variance = cellVariance({ block: 0, launch: 0.0009, round: 0.0009 }, { launches: 3, rounds: 1 })
    expect(variance).toBeCloseTo(0.0006, 12)
    expect(separableRatio(variance)).toBeCloseTo(Math.exp(1.96 * Math.sqrt(0.0012)), 12)
  })
})

// @ts-check
// The default profile's rounds per cell, from a calibration of the machine's spread: the fewest that tell apart cells 15 % apart, never
// fewer than the 2 an interval needs, never more than the profile's budget pays for; and where the budget cannot pay for what the spread
// needs, one line naming the spread, what the rounds afforded tell apart, and the `--repeats` that would. The arithmetic is checked
// against the rank groups' own test (separable-difference.js), on calibrations whose spread is set exactly.
import { describe, expect, it } from 'vitest'
import { roundsToSeparate, separableLog } from '../../src/judging/stats/separable-difference.js'
import { sizeRepeats } from '../../src/measures/calibrations/noise/size-repeats.js'

/** @param {number} sdLog @returns {import('../../src/measures/calibrations/noise/noise-calibration.js').NoiseCalibration} */
const calibration = (sdLog) => ({
  measuredAt: '2026-11-28T20:00:00.000Z',
  load: { scenario: 'json', connections: 100, warmupSec: 0.4, roundSec: 1, engine: 'native' },
  variance: sdLog ** 2,
  df: 12,
  launchOverheadSec: 0.4,
  suts: ['node-http', 'fastify', 'express'],
  requestsPerSec: {},
  disturbedLaunches: 0
})

/** The default plan's shape: 24 SUTs × 8 scenarios in 10 minutes, cells of 0.4 s + 1 s, 8 scenarios sharing a launch. */
const DEFAULT_PLAN = {
  budgetSec: 600, defaultCells: 192, cells: 192, cellSec: 1.45, scenariosPerLaunch: 8, calibrationFile: '/cache/noise-calibration.json'
}

describe('the rounds of the default plan', () => {
  it('on a quiet machine: 2, which already tell apart 15 %, and nothing to say', () => {
    const plan = sizeRepeats(calibration(0.03), DEFAULT_PLAN)
    expect(plan).toMatchObject({ repeats: 2, needed: 2, line: null, sdLog: 0.03 })
    expect(plan.separatesPct).toBeLessThanOrEqual(15)
    // A round costs its load and its share of the launch's 0.4 s: 1.45 + 0.05.
    expect(plan.roundSec).toBeCloseTo(1.5, 6)
    expect(plan.affordable).toBe(Math.floor(600 / 192 / 1.5))
  })

  it('on a noisy machine: what the budget pays for, with the line that says so and what would do', () => {
    const plan = sizeRepeats(calibration(0.19), DEFAULT_PLAN)
    const needed = /** @type {number} */ (roundsToSeparate(0.19, 0.15, { from: 2 }))
    expect(needed).toBeGreaterThan(2)
    expect(plan).toMatchObject({ repeats: 2, affordable: 2, needed })
    expect(plan.separatesPct).toBe(Math.round((Math.exp(separableLog(0.19, 2)) - 1) * 100))
    expect(plan.line).toBe(
      "noise: this machine's spread (sd 0.19 of ln req/s between fresh launches, each 0.4 s warm-up + 1 s per cell, measured 2026-11-28) " +
      `needs ${needed} rounds per cell to tell apart 15 %; the default plan's 10 minutes pay for 2, which tell apart ≥ ` +
      `${plan.separatesPct} %: \`--repeats ${needed}\` would (~${Math.round(192 * needed * 1.5 / 60)} min), or a quieter machine`
    )
  })

  it('between the two: the rounds the spread needs when the budget pays for them, and no more', () => {
    // A fast machine whose cells cost a third of a second: the budget pays for 10 rounds.
    const cheap = { ...DEFAULT_PLAN, cellSec: 0.25, scenariosPerLaunch: 1, budgetSec: 192 * 10 * 0.65 + 1 }
    const plan = sizeRepeats(calibration(0.06), cheap)
    expect(plan.affordable).toBe(10)
    expect(plan.repeats).toBe(roundsToSeparate(0.06, 0.15, { from: 2 }))
    expect(plan.repeats).toBeGreaterThan(2)
    expect(plan.repeats).toBeLessThan(10)
    expect(plan.line).toBeNull()
  })

  it('a run of fewer cells gets the same rounds per cell: the budget is the default plan\'s, spread over its cells', () => {
    const few = sizeRepeats(calibration(0.19), { ...DEFAULT_PLAN, cells: 2 })
    expect(few.repeats).toBe(2)
    expect(few.line).toContain(`~${Math.max(1, Math.round(2 * /** @type {number} */ (few.needed) * 1.5 / 60))} min`)
  })

  it('names the warm-up of the calibration\'s launches over their routes', () => {
    const warmed = calibration(0.19)
    warmed.load = { ...warmed.load, warmupSec: 0.15, launchWarmupSec: 0.2, launchScenarios: ['plaintext', 'json'] }
    expect(sizeRepeats(warmed, DEFAULT_PLAN).line).toContain(
      'between fresh launches, each 0.2 s per route per launch, then 0.15 s warm-up + 1 s per cell, measured 2026-11-28'
    )
  })

  it('a spread no number of rounds separates says so', () => {
    const plan = sizeRepeats(calibration(5), DEFAULT_PLAN)
    expect(plan).toMatchObject({ needed: null, repeats: 2 })
    expect(plan.line).toContain('needs more rounds than any plan to tell apart 15 %')
    expect(plan.line).toContain('no number of rounds would')
  })
})

// @ts-check
// The default plan sizes its rounds on the spread of the figure the rank groups are made on: by default the steadier of req/s and the
// cost per request, as the noise calibration measured both in the same launches; the one `--rank-by` names when it is given. A
// calibration of an earlier version knows only req/s's spread: its rounds are sized on req/s, and `auto` ranks on req/s. The noise line
// names the figure sized on, with both spreads.
import { describe, expect, it } from 'vitest'
import { roundsToSeparate } from '../../src/judging/stats/separable-difference.js'
import { sizeRepeats } from '../../src/measures/calibrations/noise/size-repeats.js'

/**
 * @param {number} requestsSdLog @param {number | undefined} costSdLog undefined: a calibration of an earlier version, without the cost
 * @returns {import('../../src/measures/calibrations/noise/noise-calibration.js').NoiseCalibration}
 */
const calibration = (requestsSdLog, costSdLog) => ({
  measuredAt: '2026-11-28T20:00:00.000Z',
  load: { scenario: 'json', connections: 100, warmupSec: 0.4, roundSec: 1, engine: 'native' },
  variance: requestsSdLog ** 2,
  df: 12,
  launchOverheadSec: 0.4,
  suts: ['node-http', 'fastify', 'express'],
  requestsPerSec: {},
  disturbedLaunches: 0,
  ...costSdLog === undefined ? {} : { costVariance: costSdLog ** 2, costDf: 12 }
})

/** The default plan's shape: 24 SUTs × 8 scenarios in 10 minutes, cells of 0.4 s + 1 s, 8 scenarios sharing a launch. */
const DEFAULT_PLAN = {
  budgetSec: 600, defaultCells: 192, cells: 192, cellSec: 1.45, scenariosPerLaunch: 8, calibrationFile: '/cache/noise-calibration.json'
}
/** A budget that pays for every round either spread needs, so that the rounds are what the spread sized. */
const ROOMY_PLAN = { ...DEFAULT_PLAN, defaultCells: 2 }

describe('the figure the rounds are sized on', () => {
  it('by default, the cost where its spread is the smaller: its sd sizes the rounds, and fewer are needed', () => {
    const plan = sizeRepeats(calibration(0.25, 0.12), ROOMY_PLAN)
    expect(plan).toMatchObject({ sizedOn: 'cost', sdLog: 0.12, sdLogOf: { 'req/s': 0.25, cost: 0.12 } })
    expect(plan.rankBy).toEqual({ figure: 'cost', by: 'calibration' })
    expect(plan.needed).toBe(roundsToSeparate(0.12, 0.15, { from: 2 }))
    const onRequests = sizeRepeats(calibration(0.25, 0.12), { ...ROOMY_PLAN, rankBy: 'req/s' })
    expect(plan.needed).toBeLessThan(/** @type {number} */ (onRequests.needed))
  })

  it('by default, req/s where its spread is the smaller', () => {
    const plan = sizeRepeats(calibration(0.1, 0.2), ROOMY_PLAN)
    expect(plan).toMatchObject({ sizedOn: 'req/s', sdLog: 0.1, rankBy: { figure: 'req/s', by: 'calibration' } })
  })

  it('the figure --rank-by names, even where the other spreads less', () => {
    expect(sizeRepeats(calibration(0.25, 0.12), { ...ROOMY_PLAN, rankBy: 'req/s' }))
      .toMatchObject({ sizedOn: 'req/s', sdLog: 0.25, rankBy: { figure: 'req/s', by: 'given' } })
    expect(sizeRepeats(calibration(0.1, 0.2), { ...ROOMY_PLAN, rankBy: 'cost' }))
      .toMatchObject({ sizedOn: 'cost', sdLog: 0.2, rankBy: { figure: 'cost', by: 'given' } })
  })

  it('a calibration without the cost\'s spread: req/s by default, and req/s\'s spread sizes a run ranked on cost', () => {
    expect(sizeRepeats(calibration(0.25, undefined), ROOMY_PLAN))
      .toMatchObject({ sizedOn: 'req/s', sdLog: 0.25, sdLogOf: { 'req/s': 0.25, cost: null } })
    expect(sizeRepeats(calibration(0.25, undefined), ROOMY_PLAN).rankBy).toEqual({ figure: 'req/s', by: 'no cost spread' })
    expect(sizeRepeats(calibration(0.25, undefined), { ...ROOMY_PLAN, rankBy: 'cost' }))
      .toMatchObject({ sizedOn: 'req/s', sdLog: 0.25, rankBy: { figure: 'cost', by: 'given' } })
  })
})

describe('the noise line', () => {
  it('names the figure sized on, then the other\'s spread', () => {
    expect(sizeRepeats(calibration(0.25, 0.19), DEFAULT_PLAN).line)
      .toMatch(/^noise: this machine's spread \(sd 0\.19 of ln cpu µs\/request \(req\/s: 0\.25\) between fresh launches, each /)
    expect(sizeRepeats(calibration(0.19, 0.25), DEFAULT_PLAN).line)
      .toMatch(/^noise: this machine's spread \(sd 0\.19 of ln req\/s \(cpu µs\/request: 0\.25\) between fresh launches, each /)
  })

  it('of a calibration without the cost: req/s\'s spread alone, as before', () => {
    expect(sizeRepeats(calibration(0.19, undefined), DEFAULT_PLAN).line)
      .toMatch(/^noise: this machine's spread \(sd 0\.19 of ln req\/s between fresh launches, each /)
  })
})

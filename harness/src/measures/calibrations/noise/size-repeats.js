// @ts-check
// How many rounds (each a fresh launch) the default plan gives each cell, from this machine's measured spread: the fewest that let the
// rank groups tell apart cells 15 % apart, and never more than the plan's time budget pays for (nor fewer than 2, which an interval
// needs). Where the budget cannot pay for what the spread needs, one line says so before the run and in its reports, with the
// `--repeats` that would and about how long it would take. Each round of a cell is a fresh launch, and the spread measured is a round's
// between launches: so the plan's one choice is how many (docs/measuring.md, "Where the spread comes from", for why not longer rounds).
// The rounds are sized on the spread of the figure the rank groups are made on (`--rank-by`; by default the steadier of the two).
import { rankChoice, RANK_FIGURE_WORDS } from '../../../judging/rank-figure.js'
import { roundsToSeparate, SEPARATE_SHARE, separableLog } from '../../../judging/stats/separable-difference.js'
import { loadTimesText } from '../../load-settings.js'

/** An interval, and so a rank group, needs two rounds. */
const FEWEST_REPEATS = 2

/**
 * @typedef {object} NoisePlan what run.json records of how the rounds were chosen
 * @property {number} repeats the rounds each cell gets
 * @property {number | null} needed the rounds that would tell apart 15 %; null: more than the rank groups consider
 * @property {number} affordable the most the budget pays for
 * @property {number} budgetSec the default plan's time
 * @property {number} roundSec what one round of one cell is expected to cost, its share of its launch included
 * @property {number} sdLog the spread of one round of a cell between fresh launches, as an sd of ln of the figure sized on
 * @property {import('../../../judging/rank-figure.js').RankFigure} [sizedOn] the figure whose spread sized the rounds (absent: req/s)
 * @property {{ 'req/s': number, cost: number | null }} [sdLogOf] the spread of each figure (cost null: not known): within a block where
 *   the calibration measured it (withinBlocks), else between launches
 * @property {{ 'req/s': number, cost: number | null }} [sdLogBetweenLaunches] the spread of each figure with the blocks' effect left in
 * @property {boolean} [withinBlocks] whether sdLogOf is the spread within a block, which the rank groups judge pairs on
 * @property {import('../../../judging/rank-figure.js').RankChoice} [rankBy] the figure the rank groups are made on, and why
 * @property {number} separatesPct what `repeats` rounds tell apart, in %
 * @property {string | null} line said before the run and in its reports when the budget cannot pay for what the spread needs
 * @property {string} calibrationFile
 * @property {string} measuredAt when the calibration was measured
 * @property {number} disturbedLaunches of the calibration, kept although disturbed
 */

/**
 * @param {import('./noise-calibration.js').NoiseCalibration} calibration
 * @param {{ budgetSec: number, defaultCells: number, cells: number, cellSec: number, scenariosPerLaunch: number, calibrationFile: string,
 *   rankBy?: string }} plan defaultCells: the cells of the default plan, over which the budget is spread; cells: this run's; cellSec: one
 *   round of one cell, its load and what the measure adds; rankBy: `--rank-by` (absent: auto)
 * @returns {NoisePlan}
 */
export function sizeRepeats (calibration, plan) {
  const { budgetSec, defaultCells, cells, cellSec, scenariosPerLaunch, calibrationFile, rankBy = 'auto' } = plan
  const between = spreadsOf(calibration)
  const within = withinSpreadsOf(calibration)
  const sdLogOf = within ?? between
  const choice = rankChoice(rankBy, { requestsSdLog: sdLogOf['req/s'], costSdLog: sdLogOf.cost })
  const sizedOn = choice.figure === 'cost' && sdLogOf.cost !== null ? 'cost' : 'req/s'
  const sdLog = sizedOn === 'cost' ? Number(sdLogOf.cost) : sdLogOf['req/s']
  const roundSec = cellSec + calibration.launchOverheadSec / Math.max(1, scenariosPerLaunch)
  const affordable = Math.max(FEWEST_REPEATS, Math.floor(budgetSec / defaultCells / roundSec))
  const needed = roundsToSeparate(sdLog, SEPARATE_SHARE, { from: FEWEST_REPEATS })
  const repeats = needed === null ? affordable : Math.min(needed, affordable)
  const separatesPct = Math.round((Math.exp(separableLog(sdLog, repeats)) - 1) * 100)
  const { warmupSec, roundSec: durationSec, launchWarmupSec } = calibration.load
  const launches = loadTimesText({ launchWarmupSec, warmupSec, durationSec })
  const spread = `${spreadText(sizedOn, sdLogOf)} ${within ? 'within a block of' : 'between'} fresh launches, each ${launches}`
  const minutes = (/** @type {number} */ rounds) => Math.max(1, Math.round(cells * rounds * roundSec / 60))
  const would = needed === null ? 'no number of rounds would' : `\`--repeats ${needed}\` would (~${minutes(needed)} min)`
  const line = needed !== null && needed <= affordable
    ? null
    : `noise: this machine's spread (${spread}, measured ${calibration.measuredAt.slice(0, 10)}) needs ` +
      `${needed === null ? 'more rounds than any plan' : `${needed} rounds per cell`} to tell apart 15 %; the default plan's ` +
      `${Math.round(budgetSec / 60)} minutes pay for ${repeats}, which tell apart ≥ ${separatesPct} %: ${would}, or a quieter machine`
  return {
    repeats,
    needed,
    affordable,
    budgetSec,
    roundSec: Math.round(roundSec * 1000) / 1000,
    sdLog: Math.round(sdLog * 10000) / 10000,
    sizedOn,
    sdLogOf,
    sdLogBetweenLaunches: between,
    withinBlocks: within !== null,
    rankBy: choice,
    separatesPct,
    line,
    calibrationFile,
    measuredAt: calibration.measuredAt,
    disturbedLaunches: calibration.disturbedLaunches
  }
}

/**
 * Each figure's sd of ln between launches; the cost's null where the calibration does not know it (one of an earlier version).
 * @param {import('./noise-calibration.js').NoiseCalibration} calibration
 * @returns {{ 'req/s': number, cost: number | null }}
 */
function spreadsOf (calibration) {
  const rounded = (/** @type {number} */ variance) => Math.round(Math.sqrt(variance) * 10000) / 10000
  const cost = calibration.costVariance
  return { 'req/s': rounded(calibration.variance), cost: typeof cost === 'number' ? rounded(cost) : null }
}

/**
 * Each figure's sd of ln within a rotation of the calibration (every SUT once), the rotation's effect taken out; null where the
 * calibration does not know it for req/s.
 * @param {import('./noise-calibration.js').NoiseCalibration} calibration
 * @returns {{ 'req/s': number, cost: number | null } | null}
 */
function withinSpreadsOf (calibration) {
  const within = calibration.withinRotation
  if (typeof within?.variance !== 'number') return null
  const rounded = (/** @type {number} */ variance) => Math.round(Math.sqrt(variance) * 10000) / 10000
  return { 'req/s': rounded(within.variance), cost: typeof within.costVariance === 'number' ? rounded(within.costVariance) : null }
}

/**
 * `sd 0.12 of ln cpu µs/request (req/s: 0.25)`: the spread the rounds were sized on, then the other figure's where it is known.
 * @param {import('../../../judging/rank-figure.js').RankFigure} sizedOn @param {{ 'req/s': number, cost: number | null }} sdLogOf
 */
export function spreadText (sizedOn, sdLogOf) {
  const other = sizedOn === 'cost' ? 'req/s' : 'cost'
  const otherSd = sdLogOf[other]
  return `sd ${Number(sdLogOf[sizedOn]).toFixed(2)} of ln ${RANK_FIGURE_WORDS[sizedOn]}` +
    (otherSd === null ? '' : ` (${RANK_FIGURE_WORDS[other]}: ${otherSd.toFixed(2)})`)
}

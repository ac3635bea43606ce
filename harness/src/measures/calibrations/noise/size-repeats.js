// @ts-check
// How many rounds (each a fresh launch) the default plan gives each cell, from this machine's measured spread: the fewest that let the
// rank groups tell apart cells 15 % apart, and never more than the plan's time budget pays for (nor fewer than 2, which an interval
// needs). Where the budget cannot pay for what the spread needs, one line says so before the run and in its reports, with the
// `--repeats` that would and about how long it would take. Each round of a cell is a fresh launch, and the spread measured is a round's
// between launches: so the plan's one choice is how many (docs/measuring.md, "Where the spread comes from", for why not longer rounds).
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
 * @property {number} sdLog the spread of one round of a cell between fresh launches, as an sd of ln req/s
 * @property {number} separatesPct what `repeats` rounds tell apart, in %
 * @property {string | null} line said before the run and in its reports when the budget cannot pay for what the spread needs
 * @property {string} calibrationFile
 * @property {string} measuredAt when the calibration was measured
 * @property {number} disturbedLaunches of the calibration, kept although disturbed
 */

/**
 * @param {import('./noise-calibration.js').NoiseCalibration} calibration
 * @param {{ budgetSec: number, defaultCells: number, cells: number, cellSec: number, scenariosPerLaunch: number, calibrationFile: string }}
 *   plan defaultCells: the cells of the default plan, over which the budget is spread; cells: this run's; cellSec: one round of one cell,
 *   its load and what the measure adds
 * @returns {NoisePlan}
 */
export function sizeRepeats (calibration, { budgetSec, defaultCells, cells, cellSec, scenariosPerLaunch, calibrationFile }) {
  const sdLog = Math.sqrt(calibration.variance)
  const roundSec = cellSec + calibration.launchOverheadSec / Math.max(1, scenariosPerLaunch)
  const affordable = Math.max(FEWEST_REPEATS, Math.floor(budgetSec / defaultCells / roundSec))
  const needed = roundsToSeparate(sdLog, SEPARATE_SHARE, { from: FEWEST_REPEATS })
  const repeats = needed === null ? affordable : Math.min(needed, affordable)
  const separatesPct = Math.round((Math.exp(separableLog(sdLog, repeats)) - 1) * 100)
  const { warmupSec, roundSec: durationSec, launchWarmupSec } = calibration.load
  const launches = loadTimesText({ launchWarmupSec, warmupSec, durationSec })
  const spread = `sd ${sdLog.toFixed(2)} of ln req/s between fresh launches, each ${launches}`
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
    separatesPct,
    line,
    calibrationFile,
    measuredAt: calibration.measuredAt,
    disturbedLaunches: calibration.disturbedLaunches
  }
}

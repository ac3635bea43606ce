// @ts-check
// Where the spread of a benchmark's figure comes from, by Kalibera and Jones' method for repetitions at several levels ("Rigorous
// Benchmarking in Reasonable Time", ISMM 2013): a balanced nested design of blocks of time (the minute a cell runs in), fresh launches of
// the SUT within each block, and 1-second rounds within each launch, all on ln req/s. Each level's variance is estimated without bias
// from the level below it, and the numbers of launches and rounds that give the narrowest figure for a time budget follow from them and
// from what each level costs.
import { mean, variance } from 'simple-statistics'

/**
 * @typedef {object} Components variances of ln req/s (an sd of 0.03 is a spread of about 3 %)
 * @property {number} block between blocks of time (the minute), beyond what the launches in them explain
 * @property {number} launch between fresh launches in one block, beyond what their rounds explain
 * @property {number} round between 1-second rounds of one launch
 */

/** @param {number[]} values @returns {number} the unbiased sample variance; 0 for fewer than two */
const sampleVariance = (values) => values.length < 2 ? 0 : variance(values) * values.length / (values.length - 1)

/**
 * The variance components of one SUT's measurements.
 * @param {number[][][]} data data[block][launch][round]: ln req/s; balanced (every block the same launches, every launch the same rounds)
 * @returns {Components} each at least 0 (an estimate below 0 says the level adds nothing measurable)
 */
export function varianceComponents (data) {
  const rounds = data[0]?.[0]?.length ?? 0
  const launches = data[0]?.length ?? 0
  if (data.length < 2 || launches < 2 || rounds < 2) throw new Error('variance components need at least 2 blocks, 2 launches and 2 rounds')
  for (const block of data) {
    if (block.length !== launches || block.some((launch) => launch.length !== rounds)) throw new Error('the design must be balanced')
  }
  // The mean square at each level: the variance of the rounds within a launch, of the launches' means within a block, of the blocks' means.
  const withinLaunch = mean(data.flatMap((block) => block.map(sampleVariance)))
  const launchMeans = data.map((block) => block.map((launch) => mean(launch)))
  const withinBlock = mean(launchMeans.map(sampleVariance))
  const betweenBlocks = sampleVariance(launchMeans.map((block) => mean(block)))
  return {
    round: withinLaunch,
    launch: Math.max(0, withinBlock - withinLaunch / rounds),
    block: Math.max(0, betweenBlocks - withinBlock / launches)
  }
}

/**
 * The variance of a cell's figure (the mean of ln req/s) measured in `launches` fresh launches of `rounds` rounds each, the launches
 * interleaved with the other cells' so that each falls in a different minute (the block component averages over them too).
 * @param {Components} components @param {{ launches: number, rounds: number }} plan
 */
export const cellVariance = (components, { launches, rounds }) =>
  (components.block + components.launch + components.round / rounds) / launches

/**
 * The rounds per launch and the launches per cell that make a cell's figure narrowest within a budget per cell (Kalibera and Jones:
 * rounds* = √(round variance × the cost of a launch beyond its rounds ÷ (the variance above the rounds × the cost of a round))), at
 * least `minLaunches` launches (an interval needs two), with no more rounds than those launches can pay for (at least one).
 * @param {Components} components
 * @param {{ budgetSec: number, launchSec: number, roundSec: number, minLaunches?: number, maxRounds?: number }} costs launchSec: what a
 *   launch costs besides its measured rounds (the SUT's start, its warm-up); roundSec: one measured round
 * @returns {{ launches: number, rounds: number, variance: number, spentSec: number }}
 */
export function bestPlan (components, { budgetSec, launchSec, roundSec, minLaunches = 2, maxRounds = 30 }) {
  const above = components.block + components.launch
  const ideal = above > 0 ? Math.sqrt(components.round * launchSec / (above * roundSec)) : maxRounds
  // A budget too small for the fewest launches at the ideal rounds gets the rounds that fit (at least one).
  const fitting = Math.max(1, Math.floor((budgetSec / minLaunches - launchSec) / roundSec))
  // The whole numbers either side of the ideal, each with as many launches as the budget pays for; the narrower wins.
  const candidates = [Math.floor(ideal), Math.ceil(ideal)]
    .map((rounds) => Math.min(maxRounds, fitting, Math.max(1, rounds)))
    .map((rounds) => {
      const launches = Math.max(minLaunches, Math.floor(budgetSec / (launchSec + rounds * roundSec)))
      const spentSec = launches * (launchSec + rounds * roundSec)
      return { launches, rounds, variance: cellVariance(components, { launches, rounds }), spentSec }
    })
  return candidates.reduce((best, candidate) => candidate.variance < best.variance ? candidate : best)
}

/**
 * The smallest ratio between two cells measured with this variance each that a 95 % interval of their ratio leaves clear of 1.
 * @param {number} cellVarianceOfLn
 */
export const separableRatio = (cellVarianceOfLn) => Math.exp(1.96 * Math.sqrt(2 * cellVarianceOfLn))

// @ts-check
// Orders with their uncertainty: from the rounds of each cell of one scenario (each round a fresh launch of the SUT), the
// cell's figure, its 95% interval, which cells the data tells apart, the rank group that follows, and how many rounds would
// tell apart the neighbours it cannot. The method and the reasons for it: docs/measuring.md, "Orders with their uncertainty".
import { mean, sampleVariance } from 'simple-statistics'
import { blockModel } from './block-model.js'
import { studentTQuantile, studentTTwoSidedP } from './student-t.js'

/**
 * The false discovery rate of the rank groups: of the pairs a table puts in different groups, the expected share that
 * would come out in the other order in another run. Benjamini–Hochberg controls exactly that share among the separations
 * made; Holm, which guards against any single false separation among the 276 pairs of 24 SUTs, would lump together
 * frameworks 30–40% apart.
 */
export const RANK_FDR = 0.02

/**
 * The most prior degrees of freedom a cell's variance borrows from the scenario's pooled one (ν0, after Smyth 2004).
 * Enough that a cell with two rounds that happen to agree does not get a falsely narrow interval; few enough that a cell
 * much noisier than the others in its own rounds (a SUT with two steady states across launches) keeps a wide one.
 */
export const PRIOR_DF = 4

/** Beyond this many rounds per cell, a pair is reported as one that cannot be told apart. */
export const MAX_ROUNDS_TO_SEPARATE = 1000

/** What a report says where every cell of a scenario has one round. */
export const ONE_ROUND_NOTE = 'one round: no rank groups (measure in at least 2 rounds)'

/**
 * @typedef {{ pooledSdLog: number, df: number, nu0: number, sdLogWithoutBlocks?: number }} Noise the spread between rounds of a
 *   scenario: the pooled standard deviation of ln(req/s), its degrees of freedom, and the prior degrees of freedom each cell borrows.
 *   Where the rounds were measured as blocks, pooledSdLog is the spread left within a block once its effect (the machine's speed then)
 *   is taken out, and sdLogWithoutBlocks the spread with it
 * @typedef {object} RankedCell
 * @property {number} center the geometric mean of the rounds' req/s
 * @property {[number, number] | null} interval95 95% interval of the center; null when no variance can be estimated
 * @property {{ best: number, worst: number, of: number }} rank the best and worst place the data allows (the plain order
 *   when no variance can be estimated)
 * @property {boolean | null} separatedFromNext whether the data tells it apart from the next slower cell; null for the
 *   slowest, and when no variance can be estimated
 * @property {number | null} roundsToSeparateFromNext when not separated from the next: the rounds per cell at which the
 *   difference seen would separate them; null when the difference is 0 or that needs more than MAX_ROUNDS_TO_SEPARATE
 */

/**
 * @typedef {{ first: number, second: number, p: number, separated: boolean }} RankedPair two cells (their indexes, first < second), the
 *   p of their test and whether the data tells them apart
 */

/**
 * @param {number[][]} cells per cell of one scenario and connection level, its rounds' req/s (at least one, each > 0)
 * @param {string[][]} [blocks] per cell, the block each round was measured in (suite/plan/plan-runs.js): where the cells share blocks,
 *   a pair is judged on its differences within the blocks they share, so that the machine's speed in a block, the same for both, drops
 *   out
 * @returns {{ noise: Noise | null, cells: RankedCell[], pairs: RankedPair[] }} noise null when every cell has one round; cells in the
 *   order given; pairs: every pair (none when every cell has one round)
 */
export function rankGroups (cells, blocks) {
  const stats = cells.map((rates) => {
    if (rates.length === 0 || rates.some((rate) => !(rate > 0 && Number.isFinite(rate)))) {
      throw new RangeError(`a cell needs at least one rate, each a finite number > 0, got [${rates.join(', ')}]`)
    }
    const logs = rates.map(Math.log)
    return { n: logs.length, meanLog: mean(logs), variance: logs.length < 2 ? 0 : sampleVariance(logs) }
  })
  const order = stats.map((_, index) => index).sort((a, b) => stats[b].meanLog - stats[a].meanLog || a - b)
  const center = (/** @type {number} */ index) => Math.exp(stats[index].meanLog)
  const dfPool = stats.reduce((sum, cell) => sum + cell.n - 1, 0)
  if (dfPool === 0) {
    return {
      noise: null,
      cells: stats.map((_, index) => ({
        center: center(index),
        interval95: null,
        rank: { best: order.indexOf(index) + 1, worst: order.indexOf(index) + 1, of: cells.length },
        separatedFromNext: null,
        roundsToSeparateFromNext: null
      })),
      pairs: []
    }
  }
  const pooledVariance = stats.reduce((sum, cell) => sum + (cell.n - 1) * cell.variance, 0) / dfPool
  const nu0 = Math.min(PRIOR_DF, dfPool)
  // Each cell's variance moderated towards the pooled one (empirical Bayes), with the degrees of freedom of both.
  const moderated = stats.map((cell) => ({
    ...cell,
    variance: (nu0 * pooledVariance + (cell.n - 1) * cell.variance) / (nu0 + cell.n - 1),
    df: nu0 + cell.n - 1
  }))
  const apart = welchPairs(moderated, nu0)
  const blocked = blocks ? blockedPairs(cells, blocks, apart) : null
  const test = blocked ?? apart
  const pairs = []
  for (let first = 0; first < moderated.length; first++) {
    for (let second = first + 1; second < moderated.length; second++) {
      pairs.push({ first, second, p: test.p(first, second), separated: false, bhRank: 0 })
    }
  }
  // Benjamini–Hochberg: the largest k whose k-th smallest p is at most k/m · q; the k smallest are separated.
  const byP = [...pairs].sort((a, b) => a.p - b.p)
  byP.forEach((pair, at) => { pair.bhRank = at + 1 })
  const rejected = byP.reduce((k, pair, at) => pair.p <= (at + 1) / pairs.length * RANK_FDR ? at + 1 : k, 0)
  for (const pair of byP.slice(0, rejected)) pair.separated = true
  /** @type {Map<string, typeof pairs[number]>} */
  const pairOf = new Map(pairs.map((pair) => [`${pair.first},${pair.second}`, pair]))
  const between = (/** @type {number} */ a, /** @type {number} */ b) =>
    /** @type {typeof pairs[number]} */ (pairOf.get(a < b ? `${a},${b}` : `${b},${a}`))
  return {
    noise: blocked
      ? { ...blocked.noise, sdLogWithoutBlocks: Math.sqrt(pooledVariance) }
      : { pooledSdLog: Math.sqrt(pooledVariance), df: dfPool, nu0 },
    pairs: pairs.map(({ first, second, p, separated }) => ({ first, second, p, separated })),
    cells: moderated.map((cell, index) => {
      const halfWidth = studentTQuantile(0.975, cell.df) * Math.sqrt(cell.variance / cell.n)
      const others = moderated.map((_, other) => other).filter((other) => other !== index)
      const separatedFrom = (/** @type {(other: number) => boolean} */ side) =>
        others.filter((other) => side(other) && between(index, other).separated).length
      const next = order[order.indexOf(index) + 1]
      const nextPair = next === undefined ? null : between(index, next)
      return {
        center: center(index),
        interval95: /** @type {[number, number]} */ ([Math.exp(cell.meanLog - halfWidth), Math.exp(cell.meanLog + halfWidth)]),
        rank: {
          best: 1 + separatedFrom((other) => moderated[other].meanLog > cell.meanLog),
          worst: moderated.length - separatedFrom((other) => moderated[other].meanLog < cell.meanLog),
          of: moderated.length
        },
        separatedFromNext: nextPair ? nextPair.separated : null,
        roundsToSeparateFromNext: nextPair && !nextPair.separated
          // The level BH would hold the pair to at its current place among the p-values.
          ? test.roundsToSeparate(index, next, nextPair.bhRank / pairs.length * RANK_FDR)
          : null
      }
    })
  }
}

/**
 * @typedef {{ n: number, meanLog: number, variance: number, df: number }} ModeratedCell
 * @typedef {object} PairTest
 * @property {(a: number, b: number) => number} p the two-sided p of the difference between two cells
 * @property {(a: number, b: number, alpha: number) => number | null} roundsToSeparate the fewest rounds per cell at which the difference
 *   seen would be separated at the level alpha; null when it is 0 or that takes more than MAX_ROUNDS_TO_SEPARATE
 */

/**
 * Cells measured apart: Welch's test on their moderated variances.
 * @param {ModeratedCell[]} moderated @param {number} nu0 @returns {PairTest}
 */
const welchPairs = (moderated, nu0) => ({
  p: (a, b) => welchP(moderated[a], moderated[b]),
  roundsToSeparate: (a, b, alpha) => roundsToSeparate(moderated[a], moderated[b], { alpha, nu0 })
})

/**
 * Cells measured as blocks: each pair's differences within the blocks both were measured in, their variance moderated towards the
 * pooled one of a model with a block effect and a cell effect (ln y = cell + block + error), a paired t test. Null where no pair shares
 * two blocks, the model leaves no degree of freedom, or a cell has two rounds in one block: the cells were measured apart.
 * @param {number[][]} cells @param {string[][]} blocks @param {PairTest} apart how a pair that shares no block is judged
 * @returns {(PairTest & { noise: Noise }) | null}
 */
function blockedPairs (cells, blocks, apart) {
  if (blocks.some((cell, at) => cell.length !== cells[at].length || new Set(cell).size !== cell.length)) return null
  const logs = cells.map((rates, cell) => new Map(rates.map((rate, at) => [blocks[cell][at], Math.log(rate)])))
  const fit = blockModel(logs)
  if (!fit) return null
  // A pair's difference borrows from the pool what both its cells would: PRIOR_DF degrees of freedom each, as Welch's test gets them.
  const nu0 = Math.min(2 * PRIOR_DF, fit.df)
  const priorVariance = 2 * fit.variance
  /** @type {Map<string, { n: number, meanDifference: number, variance: number }>} */
  const differences = new Map()
  const differenceOf = (/** @type {number} */ a, /** @type {number} */ b) => {
    const key = `${a},${b}`
    const known = differences.get(key)
    if (known) return known
    const within = [...logs[a]].filter(([block]) => logs[b].has(block))
      .map(([block, log]) => log - /** @type {number} */ (logs[b].get(block)))
    const n = within.length
    const own = n < 2 ? 0 : sampleVariance(within)
    const found = {
      n,
      meanDifference: n === 0 ? 0 : mean(within),
      variance: n === 0 ? priorVariance : (nu0 * priorVariance + (n - 1) * own) / (nu0 + n - 1)
    }
    differences.set(key, found)
    return found
  }
  return {
    noise: { pooledSdLog: Math.sqrt(fit.variance), df: fit.df, nu0: Math.min(PRIOR_DF, fit.df) },
    p (a, b) {
      const pair = differenceOf(a, b)
      if (pair.n === 0) return apart.p(a, b)
      if (pair.variance === 0) return pair.meanDifference === 0 ? 1 : 0
      return studentTTwoSidedP(pair.meanDifference / Math.sqrt(pair.variance / pair.n), nu0 + pair.n - 1)
    },
    roundsToSeparate (a, b, alpha) {
      const pair = differenceOf(a, b)
      if (pair.n === 0) return apart.roundsToSeparate(a, b, alpha)
      const gap = Math.abs(pair.meanDifference)
      if (gap === 0) return null
      const separates = (/** @type {number} */ rounds) =>
        studentTQuantile(1 - alpha / 2, nu0 + rounds - 1) * Math.sqrt(pair.variance / rounds) <= gap
      return fewestRounds(separates, pair.n)
    }
  }
}

/**
 * The fewest rounds, from `from`, at which `separates` holds (it gets easier with every round): bisected; null beyond
 * MAX_ROUNDS_TO_SEPARATE.
 * @param {(rounds: number) => boolean} separates @param {number} from
 */
function fewestRounds (separates, from) {
  if (!separates(MAX_ROUNDS_TO_SEPARATE)) return null
  let low = from
  let high = MAX_ROUNDS_TO_SEPARATE
  if (low >= high) return high
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2)
    if (separates(middle)) high = middle
    else low = middle
  }
  return high
}

/**
 * The two-sided p of Welch's t test on two cells' mean logs, with Welch–Satterthwaite degrees of freedom.
 * @param {ModeratedCell} a @param {ModeratedCell} b
 */
function welchP (a, b) {
  const difference = a.meanLog - b.meanLog
  const shareA = a.variance / a.n
  const shareB = b.variance / b.n
  if (shareA + shareB === 0) return difference === 0 ? 1 : 0
  return studentTTwoSidedP(difference / Math.sqrt(shareA + shareB), welchDf(shareA, a.df, shareB, b.df))
}

/** @param {number} shareA @param {number} dfA @param {number} shareB @param {number} dfB */
const welchDf = (shareA, dfA, shareB, dfB) => (shareA + shareB) ** 2 / (shareA ** 2 / dfA + shareB ** 2 / dfB)

/**
 * The fewest rounds per cell at which the difference seen between two cells, with their moderated variances, would be
 * separated at the level `alpha`; null when the difference is 0 or that takes more than MAX_ROUNDS_TO_SEPARATE.
 * @param {ModeratedCell} a @param {ModeratedCell} b
 * @param {{ alpha: number, nu0: number }} level
 */
function roundsToSeparate (a, b, { alpha, nu0 }) {
  const gap = Math.abs(a.meanLog - b.meanLog)
  if (gap === 0) return null
  const separates = (/** @type {number} */ rounds) => {
    const shareA = a.variance / rounds
    const shareB = b.variance / rounds
    if (shareA + shareB === 0) return true
    const df = welchDf(shareA, nu0 + rounds - 1, shareB, nu0 + rounds - 1)
    return studentTQuantile(1 - alpha / 2, df) * Math.sqrt(shareA + shareB) <= gap
  }
  return fewestRounds(separates, Math.max(a.n, b.n))
}

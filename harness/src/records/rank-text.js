// @ts-check
// How the terminal and the reports say a cell's figure with its uncertainty: its rank group, its interval, and under a
// scenario's table the neighbours the data cannot tell apart.
import { MAX_ROUNDS_TO_SEPARATE, ONE_ROUND_NOTE } from '../judging/stats/rank-groups.js'
import { formatInteger } from '../platform/text/format.js'

/**
 * `3` when the data places a cell alone, `2–4` when it could be anywhere from 2nd to 4th; '-' without a rank.
 * @param {import('./aggregate-runs.js').Aggregate['rank'] | undefined} rank
 */
export const rankText = (rank) => !rank ? '-' : rank.best === rank.worst ? String(rank.best) : `${rank.best}–${rank.worst}`

/**
 * The rank group of a cell whose scenario has rank groups (rounds enough to estimate the spread), else null.
 * @param {import('./aggregate-runs.js').Aggregate | null | undefined} aggregate
 */
export const rankGroupText = (aggregate) => aggregate?.rank && aggregate.noise ? rankText(aggregate.rank) : null

/** @param {[number, number] | null | undefined} interval */
export const intervalText = (interval) => interval ? `${formatInteger(interval[0])}–${formatInteger(interval[1])}` : '-'

/**
 * The figure a cell's rank is of, and its interval: req/s, or its cost per request where the cells were ranked on cost.
 * @param {import('./aggregate-runs.js').Aggregate} aggregate
 * @returns {{ center: number, interval95: [number, number] | null, better: 'higher' | 'lower' }}
 */
export function rankedFigure (aggregate) {
  return aggregate.rankedBy === 'cost' && aggregate.cpuCost
    ? { center: aggregate.cpuCost.center, interval95: aggregate.cpuCost.interval95 ?? null, better: 'lower' }
    : { center: aggregate.requestsPerSec.center, interval95: aggregate.requestsPerSec.interval95, better: 'higher' }
}

/**
 * The cells with an ok run, best first by the figure they were ranked on (the geometric mean of the runs): the fastest, or the cheapest.
 * @template {import('./aggregate-runs.js').Aggregate} A
 * @param {A[]} aggregates
 * @returns {A[]}
 */
export const byCenter = (aggregates) => aggregates.filter((aggregate) => aggregate.rank)
  .sort((a, b) => {
    const [first, second] = [rankedFigure(a), rankedFigure(b)]
    const gap = first.better === 'lower' ? first.center - second.center : second.center - first.center
    return gap || (a.rank?.best ?? 0) - (b.rank?.best ?? 0)
  })

/**
 * What is said under a scenario's table (one scenario, one connection level): the spread between rounds (of the figure ranked on), or
 * that one round gives no rank groups, and for each pair of neighbours the data cannot tell apart although a figure lies within the
 * other's interval, how many rounds would.
 * @param {import('./aggregate-runs.js').Aggregate[]} aggregates the cells of one scenario and connection level
 * @returns {string[]}
 */
export function rankNotes (aggregates) {
  const ordered = byCenter(aggregates)
  if (ordered.length === 0) return []
  const { noise } = ordered[0]
  if (!noise) return [ONE_ROUND_NOTE]
  const onCost = ordered[0].rankedBy === 'cost'
  const percent = (/** @type {number} */ sdLog) => `±${((Math.exp(sdLog) - 1) * 100).toFixed(1)}%`
  const blocks = noise.sdLogWithoutBlocks === undefined
    ? ''
    : `; within a block, every SUT back to back: ${percent(noise.pooledSdLog)}, which the groups are judged on`
  const spread = percent(noise.sdLogWithoutBlocks ?? noise.pooledSdLog)
  const notes = [`spread between rounds${onCost ? ' of the cost per request, which the cells are ranked on' : ''}: ` +
    `${spread}${blocks} (pooled over the cells, ${noise.df} degrees of freedom)`]
  ordered.forEach((faster, at) => {
    const slower = ordered[at + 1]
    if (!slower || faster.separatedFromNext !== false) return
    const within = (/** @type {[number, number] | null} */ interval, /** @type {number} */ figure) => interval !== null &&
      interval[0] <= figure && figure <= interval[1]
    const [better, worse] = [rankedFigure(faster), rankedFigure(slower)]
    const overlaps = within(better.interval95, worse.center) || within(worse.interval95, better.center)
    if (!overlaps) return
    const rounds = faster.roundsToSeparateFromNext
    const now = Math.min(faster.runs, slower.runs)
    notes.push(`${faster.sut} and ${slower.sut} cannot be told apart: ${rounds === null
      ? `not within ${MAX_ROUNDS_TO_SEPARATE} rounds`
      : `${rounds - now} more round${rounds - now === 1 ? '' : 's'} would (${rounds} each)`}`)
  })
  return notes
}

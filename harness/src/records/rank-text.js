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
 * The cells with an ok run, fastest first (by their figure, the geometric mean of the runs).
 * @template {import('./aggregate-runs.js').Aggregate} A
 * @param {A[]} aggregates
 * @returns {A[]}
 */
export const byCenter = (aggregates) => aggregates.filter((aggregate) => aggregate.rank)
  .sort((a, b) => b.requestsPerSec.center - a.requestsPerSec.center || (a.rank?.best ?? 0) - (b.rank?.best ?? 0))

/**
 * What is said under a scenario's table (one scenario, one connection level): the spread between rounds, or that one
 * round gives no rank groups, and for each pair of neighbours the data cannot tell apart although a figure lies within
 * the other's interval, how many rounds would.
 * @param {import('./aggregate-runs.js').Aggregate[]} aggregates the cells of one scenario and connection level
 * @returns {string[]}
 */
export function rankNotes (aggregates) {
  const ordered = byCenter(aggregates)
  if (ordered.length === 0) return []
  const { noise } = ordered[0]
  if (!noise) return [ONE_ROUND_NOTE]
  const notes = [`spread between rounds: ±${((Math.exp(noise.pooledSdLog) - 1) * 100).toFixed(1)}% ` +
    `(pooled over the cells, ${noise.df} degrees of freedom)`]
  ordered.forEach((faster, at) => {
    const slower = ordered[at + 1]
    if (!slower || faster.separatedFromNext !== false) return
    const within = (/** @type {[number, number] | null} */ interval, /** @type {number} */ figure) => interval !== null &&
      interval[0] <= figure && figure <= interval[1]
    const overlaps = within(faster.requestsPerSec.interval95, slower.requestsPerSec.center) ||
      within(slower.requestsPerSec.interval95, faster.requestsPerSec.center)
    if (!overlaps) return
    const rounds = faster.roundsToSeparateFromNext
    const now = Math.min(faster.runs, slower.runs)
    notes.push(`${faster.sut} and ${slower.sut} cannot be told apart: ${rounds === null
      ? `not within ${MAX_ROUNDS_TO_SEPARATE} rounds`
      : `${rounds - now} more round${rounds - now === 1 ? '' : 's'} would (${rounds} each)`}`)
  })
  return notes
}

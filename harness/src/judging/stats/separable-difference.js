// @ts-check
// The smallest difference the rank groups can tell apart between two cells of a given number of rounds, each round's figure spread by
// a given sd of ln req/s: a two-sided test at the rank groups' most lenient level (their false discovery rate), the variance moderated as
// they moderate it (`nu0` degrees of freedom borrowed from the scenario's pool). What a run's rounds separate (noise-budget.js), and how
// many rounds a planned run needs to separate a given difference (the default plan sized by a calibration of the machine's spread).
import { MAX_ROUNDS_TO_SEPARATE, PRIOR_DF, RANK_FDR } from './rank-groups.js'
import { studentTQuantile } from './student-t.js'

/** The difference a run should separate: frameworks 15 % apart. */
export const SEPARATE_SHARE = 0.15

/**
 * @param {number} sdLog the sd of one round's ln req/s @param {number} rounds of each cell @param {number} [nu0]
 * @returns {number} the smallest ln-difference separated
 */
export function separableLog (sdLog, rounds, nu0 = PRIOR_DF) {
  const df = 2 * (nu0 + rounds - 1)
  return studentTQuantile(1 - RANK_FDR / 2, df) * sdLog * Math.sqrt(2 / rounds)
}

/**
 * @param {number} sdLog @param {number} share the difference to separate (0.15: 15 % apart) @param {{ nu0?: number, from?: number }}
 *   [options] from: the fewest rounds to consider
 * @returns {number | null} the fewest rounds (at least `from`) that separate it; null: more than MAX_ROUNDS_TO_SEPARATE
 */
export function roundsToSeparate (sdLog, share, { nu0 = PRIOR_DF, from = 1 } = {}) {
  const target = Math.log(1 + share)
  for (let rounds = from; rounds <= MAX_ROUNDS_TO_SEPARATE; rounds++) if (separableLog(sdLog, rounds, nu0) <= target) return rounds
  return null
}

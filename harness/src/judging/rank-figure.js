// @ts-check
// Which figure a run's rank groups are made on: req/s (higher is better), or the SUT's cpu µs per request (lower is better), which steal
// never enters and so spreads less on a machine whose hypervisor takes its share. `auto` ranks on the steadier of the two, by the spreads
// the noise calibration measured in the same launches; req/s where the cost's spread is not known.

/** @typedef {'req/s' | 'cost'} RankFigure */

/** The figures the rank groups can be made on. */
export const RANK_FIGURES = /** @type {readonly RankFigure[]} */ (Object.freeze(['req/s', 'cost']))
/** What `--rank-by` takes: a figure, or `auto` for the steadier. */
export const RANK_BY_CHOICES = Object.freeze(['auto', ...RANK_FIGURES])

/** How each figure is named where a spread or a rank group is said. */
export const RANK_FIGURE_WORDS = Object.freeze({ 'req/s': 'req/s', cost: 'cpu µs/request' })

/**
 * @typedef {object} RankChoice what run.json records of the figure ranked on
 * @property {RankFigure} figure
 * @property {'given' | 'calibration' | 'no calibration' | 'no cost spread'} by given: `--rank-by` named it; calibration: the steadier of
 *   the calibration's spreads; no calibration: `auto` without a calibration to read (req/s); no cost spread: cost was asked for or would
 *   be chosen, but the calibration does not know its spread, so the rounds were sized on req/s's
 */

/**
 * The figure to rank on.
 * @param {string} rankBy `--rank-by`: `auto`, `req/s` or `cost`
 * @param {{ requestsSdLog: number, costSdLog: number | null } | null} spreads the calibration's (sd of ln), null: none read
 * @returns {RankChoice}
 */
export function rankChoice (rankBy, spreads) {
  if (rankBy === 'req/s' || rankBy === 'cost') return { figure: rankBy, by: 'given' }
  if (!spreads) return { figure: 'req/s', by: 'no calibration' }
  if (spreads.costSdLog === null) return { figure: 'req/s', by: 'no cost spread' }
  return { figure: spreads.costSdLog < spreads.requestsSdLog ? 'cost' : 'req/s', by: 'calibration' }
}

/**
 * Which way a figure is better.
 * @param {RankFigure} figure
 * @returns {'higher' | 'lower'}
 */
export const betterOf = (figure) => figure === 'cost' ? 'lower' : 'higher'

// @ts-check
// Whether a run's rounds can tell apart frameworks 15 % apart: from the spread between rounds its rank groups measured (the pooled
// spread of ln req/s, or of ln cost where the ranks are on cost, of the noisiest scenario), the smallest difference its rounds separate,
// and when that is more than 15 %, the rounds per cell that would separate 15 % and about how long the run would take with them. One line
// for the terminal and the reports.
import { MAX_ROUNDS_TO_SEPARATE } from '../../../judging/stats/rank-groups.js'
import { roundsToSeparate, SEPARATE_SHARE, separableLog } from '../../../judging/stats/separable-difference.js'

/**
 * @param {import('../../../records/read-run.js').RunData} run
 * @returns {string | null} the line, when the run's rounds cannot separate 15 %; null when they can, or the run has no spread to judge
 */
export function noiseBudgetLine (run) {
  const noisiest = run.aggregates.filter((aggregate) => aggregate.noise && aggregate.noise.pooledSdLog > 0)
    .sort((a, b) => (b.noise?.pooledSdLog ?? 0) - (a.noise?.pooledSdLog ?? 0))[0]
  const noise = noisiest?.noise
  if (!noisiest || !noise) return null
  const rounds = Math.max(...run.records.map((record) => record.repeat.of))
  const separates = separableLog(noise.pooledSdLog, rounds, noise.nu0)
  if (separates <= Math.log(1 + SEPARATE_SHARE)) return null
  const needed = roundsToSeparate(noise.pooledSdLog, SEPARATE_SHARE, { nu0: noise.nu0, from: rounds }) ?? MAX_ROUNDS_TO_SEPARATE
  const started = Date.parse(run.index.startedAt)
  const finished = Date.parse(run.index.finishedAt)
  const minutes = Number.isFinite(started) && Number.isFinite(finished) && finished > started
    ? Math.ceil((finished - started) / 60_000 * needed / rounds)
    : null
  const spreadPct = ((Math.exp(noise.pooledSdLog) - 1) * 100).toFixed(1)
  const separatesPct = Math.round((Math.exp(separates) - 1) * 100)
  const repeats = needed >= MAX_ROUNDS_TO_SEPARATE ? `more than ${MAX_ROUNDS_TO_SEPARATE} rounds` : `\`--repeats ${needed}\``
  const time = minutes === null ? '' : ` (~${minutes} min)`
  const figure = noisiest.rankedBy === 'cost' ? ', ln cost/request, which the ranks are on' : ''
  const where = noise.sdLogWithoutBlocks === undefined ? '' : ' within a block'
  return `noise: rounds spread ±${spreadPct} %${where} (${noisiest.scenario}${figure}), so ${rounds} round${rounds === 1 ? '' : 's'} ` +
    `tell apart only ≥ ${separatesPct} %; 15 % needs ${repeats}${time} or a quieter machine ` +
    '(`--duration` narrows only a round\'s own spread)'
}

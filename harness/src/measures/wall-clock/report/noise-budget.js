// @ts-check
// Whether a run's rounds can tell apart frameworks 15 % apart: from the spread between rounds its rank groups measured (the pooled
// spread of ln req/s of the noisiest scenario), the smallest difference its rounds separate, and when that is more than 15 %, the
// rounds per cell that would separate 15 % and about how long the run would take with them. One line for the terminal and the reports.
import { RANK_FDR, MAX_ROUNDS_TO_SEPARATE } from '../../../judging/stats/rank-groups.js'
import { studentTQuantile } from '../../../judging/stats/student-t.js'

/** The difference a run should separate: frameworks 15 % apart. */
export const SEPARATE_SHARE = 0.15

/**
 * The smallest ln-difference two cells of `rounds` rounds each separate, each with the scenario's pooled variance (moderated as the rank
 * groups moderate it: `priorDf` degrees of freedom borrowed), at the rank groups' most lenient level (their false discovery rate): a
 * lower bound of what the groups separate.
 * @param {import('../../../judging/stats/rank-groups.js').Noise} noise @param {number} rounds
 */
function separableLog (noise, rounds) {
  const df = 2 * (noise.nu0 + rounds - 1)
  return studentTQuantile(1 - RANK_FDR / 2, df) * noise.pooledSdLog * Math.sqrt(2 / rounds)
}

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
  const target = Math.log(1 + SEPARATE_SHARE)
  if (separableLog(noise, rounds) <= target) return null
  let needed = rounds
  while (needed < MAX_ROUNDS_TO_SEPARATE && separableLog(noise, needed) > target) needed += 1
  const started = Date.parse(run.index.startedAt)
  const finished = Date.parse(run.index.finishedAt)
  const minutes = Number.isFinite(started) && Number.isFinite(finished) && finished > started
    ? Math.ceil((finished - started) / 60_000 * needed / rounds)
    : null
  const spreadPct = ((Math.exp(noise.pooledSdLog) - 1) * 100).toFixed(1)
  const separatesPct = Math.round((Math.exp(separableLog(noise, rounds)) - 1) * 100)
  const repeats = needed >= MAX_ROUNDS_TO_SEPARATE ? `more than ${MAX_ROUNDS_TO_SEPARATE} rounds` : `\`--repeats ${needed}\``
  const time = minutes === null ? '' : ` (~${minutes} min)`
  return `noise: rounds spread ±${spreadPct} % (${noisiest.scenario}), so ${rounds} round${rounds === 1 ? '' : 's'} ` +
    `tell apart only ≥ ${separatesPct} %; 15 % needs ${repeats}${time} or a quieter machine ` +
    '(`--duration` narrows only a round\'s own spread)'
}

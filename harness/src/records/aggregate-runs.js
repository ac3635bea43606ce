// @ts-check
import { mean, median, sampleStandardDeviation } from 'simple-statistics'
import { mergedLatencyMs } from './merge-histograms.js'
import { bootstrapMedianInterval } from '../judging/stats/bootstrap.js'
import { notCpuBoundReason } from '../judging/cpu-bound.js'
import { sutCpusDisturbed } from '../judging/disturbance.js'
import { rankGroups } from '../judging/stats/rank-groups.js'
import { speedAdjustment } from '../judging/speed-adjustment.js'
import { roundTo } from '../platform/util/numbers.js'

/** @typedef {import('../judging/stats/rank-groups.js').Noise} Noise */
/** @typedef {import('./result-record.js').ResultRecord} Record */
/**
 * @typedef {import('../judging/stats/rank-groups.js').RankedCell & { noise: Noise | null }} NoisyCell
 * @typedef {{ requests: NoisyCell, ranked: NoisyCell, rankedBy: RankFigure, costInterval95: [number, number] | null }} CellRanking the
 *   cell's req/s (its center and interval), and the ranking it is placed by, on the figure rankedBy
 * @typedef {import('../judging/rank-figure.js').RankFigure} RankFigure
 */

/**
 * @typedef {object} Aggregate the repeats of one (SUT, scenario, connections)
 * @property {string} sut
 * @property {string} scenario
 * @property {number} connections
 * @property {number} runs measured runs (status ok) that went in
 * @property {number} excluded runs of the cell that were not ok
 * @property {number} disturbedRuns of the runs that went in, those marked disturbed by other processes: only when every ok run of the
 *   cell was (judging/disturbance.js)
 * @property {number} disturbedLeftOut ok runs left out of the figure because they were disturbed and the cell has clean ones
 * @property {number[]} requestsPerSecRuns each run's req/s, in run order
 * @property {{ median: number, mean: number, ci95: [number, number] | null, cv: number | null, center: number,
 *   interval95: [number, number] | null }} requestsPerSec
 *   ci95: bootstrap interval of the median (null below 2 runs); cv: stdev / mean of the runs; center: the cell's figure, the
 *   geometric mean of the runs (0 when none was ok); interval95: its 95% interval (null when the scenario has no spread to
 *   estimate, or the cell no ok run)
 * @property {{ best: number, worst: number, of: number } | null} rank its rank group among the cells of its scenario and
 *   connection level that were ok (the plain order when every cell has one run); null when none of its runs was ok
 * @property {boolean | null} separatedFromNext whether it is told apart from the next slower cell; null for the slowest, with
 *   one run per cell, and with no rank
 * @property {number | null} roundsToSeparateFromNext when not told apart from the next slower cell, the runs per cell that
 *   would; null otherwise, for a difference of 0, and beyond 1000
 * @property {import('../judging/stats/rank-groups.js').Noise | null} noise the spread between runs of its scenario and connection level
 *   (the same in each of its cells); null with one run per cell
 * @property {ReturnType<typeof mergedLatencyMs>} latencyMs from the merged histograms of the runs
 * @property {CellCpuCost | null} [cpuCost] what a response cost the SUT in cpu over the runs that went in; null: none of them read it
 * @property {RankFigure} [rankedBy] the figure its rank, separation and noise are of: req/s (higher first), or cost, µs of cpu per request
 *   (lower first); absent: req/s (aggregates of earlier versions)
 *
 * @typedef {object} CellCpuCost a cell's cpu cost per request
 * @property {number[]} cpuUsPerRequestRuns each counted run's µs of the SUT's cpu per response, in run order: at the run's median cpu
 *   speed where every cost of the run was probed (speedAdjusted), else as measured; the runs counted are costRunsThatCount's
 * @property {{ referenceCpuUsPerChunk: number, measuredRuns: number[] } | null} [speedAdjusted] where the costs are at the run's median
 *   cpu speed: that speed (the probe's median chunk) and the runs' costs as measured; null or absent: they are as measured
 * @property {number} center the geometric mean of the runs
 * @property {'proc' | 'cgroup'} cpuSource where the runs' cpu was read (the first run's)
 * @property {number | null} sutCpuSharePct the mean of the runs' share of the cpus the SUT was given, in %
 * @property {string | null} notCpuBound why the figure is marked (the SUT was not cpu-bound); null: it was, in every run
 * @property {[number, number] | null} [interval95] the 95% interval of center, where the cells are ranked on their cost
 */

/**
 * Groups a run's records by (SUT, scenario, connections), summarizes the ok ones, and ranks the cells of each
 * (scenario, connections) with their uncertainty.
 * @param {import('./result-record.js').ResultRecord[]} records
 * @param {{ seed: number, rankBy?: RankFigure }} options seed: the bootstrap's (the run's); rankBy: the figure the rank groups are
 *   made on (req/s when not given); a scenario whose cells do not all have a cost is ranked on req/s
 * @returns {Aggregate[]}
 */
export function aggregateRuns (records, { seed, rankBy = 'req/s' }) {
  /** @type {Map<string, import('./result-record.js').ResultRecord[]>} */
  const cells = new Map()
  for (const record of records) {
    const key = JSON.stringify([record.sut.label, record.scenario.name, record.load.connections])
    cells.set(key, [...(cells.get(key) ?? []), record])
  }
  const adjustment = speedAdjustment(records.filter((record) => record.status === 'ok').map((record) => record.summary?.cpuCost))
  const summaries = [...cells.values()].map((group) => summarize(group, seed, adjustment))
  /** @type {Map<string, typeof summaries>} */
  const scenarios = new Map()
  // Rates of 0 have no logarithm (a run that measured nothing is not ok anyway).
  const positive = (/** @type {typeof summaries[number]} */ summary) => summary.requestsPerSecRuns.filter((rate) => rate > 0)
  const positiveBlocks = (/** @type {typeof summaries[number]} */ summary) =>
    summary.runBlocks.filter((_, at) => summary.requestsPerSecRuns[at] > 0)
  for (const summary of summaries.filter((entry) => positive(entry).length > 0)) {
    const key = JSON.stringify([summary.scenario, summary.connections])
    scenarios.set(key, [...(scenarios.get(key) ?? []), summary])
  }
  /** @type {Map<typeof summaries[number], CellRanking>} */
  const ranked = new Map()
  for (const group of scenarios.values()) {
    const rankings = rankScenario(group.map((summary) => ({
      rates: positive(summary),
      blocks: positiveBlocks(summary),
      cost: summary.cpuCost,
      costBlocks: summary.costBlocks
    })), rankBy)
    group.forEach((summary, index) => ranked.set(summary, rankings[index]))
  }
  return summaries.map((entry) => {
    const { latencyMs, runBlocks, costBlocks, ...summary } = entry
    const ranking = ranked.get(entry)
    const cell = ranking?.ranked
    const rounded = (/** @type {[number, number] | null | undefined} */ interval, /** @type {number} */ digits) =>
      interval ? /** @type {[number, number]} */ (interval.map((value) => roundTo(value, digits))) : null
    return {
      ...summary,
      requestsPerSec: {
        ...summary.requestsPerSec,
        center: ranking ? roundTo(ranking.requests.center, 1) : 0,
        interval95: rounded(ranking?.requests.interval95, 1)
      },
      cpuCost: summary.cpuCost && ranking?.rankedBy === 'cost'
        ? { ...summary.cpuCost, interval95: rounded(ranking.costInterval95, 3) }
        : summary.cpuCost,
      rankedBy: ranking?.rankedBy ?? rankBy,
      rank: cell?.rank ?? null,
      separatedFromNext: cell?.separatedFromNext ?? null,
      roundsToSeparateFromNext: cell?.roundsToSeparateFromNext ?? null,
      noise: cell?.noise ? roundedNoise(cell.noise) : null,
      latencyMs
    }
  })
}

/**
 * The cells of one scenario and connection level ranked: on req/s, or on their cost per request when asked and every cell has one. A
 * lower cost is better, so the cost is ranked as its reciprocal (requests per µs of cpu): the same spread of logs, the order reversed.
 * @param {{ rates: number[], blocks?: string[], cost: CellCpuCost | null, costBlocks?: string[] }[]} cells each cell's positive req/s
 *   and its cost, each with the blocks its runs were measured in (where they are known)
 * @param {RankFigure} rankBy
 * @returns {CellRanking[]}
 */
export function rankScenario (cells, rankBy) {
  const blocksOf = (/** @type {(cell: typeof cells[number]) => string[] | undefined} */ pick) =>
    cells.every((cell) => pick(cell)) ? cells.map((cell) => /** @type {string[]} */ (pick(cell))) : undefined
  const byRate = rankGroups(cells.map((cell) => cell.rates), blocksOf((cell) => cell.blocks))
  const requests = byRate.cells.map((cell) => ({ ...cell, noise: byRate.noise }))
  const costed = rankBy === 'cost' && cells.every((cell) => (cell.cost?.cpuUsPerRequestRuns.length ?? 0) > 0)
  if (!costed) return requests.map((cell) => ({ requests: cell, ranked: cell, rankedBy: 'req/s', costInterval95: null }))
  const byCost = rankGroups(cells.map((cell) => (cell.cost?.cpuUsPerRequestRuns ?? []).map((us) => 1 / us)),
    blocksOf((cell) => cell.costBlocks))
  return requests.map((cell, index) => {
    const perUs = byCost.cells[index].interval95
    return {
      requests: cell,
      ranked: { ...byCost.cells[index], noise: byCost.noise },
      rankedBy: 'cost',
      costInterval95: perUs ? [1 / perUs[1], 1 / perUs[0]] : null
    }
  })
}

/**
 * One (SUT, scenario, connections): its ok runs' figures.
 * @param {import('./result-record.js').ResultRecord[]} group
 * @param {number} seed
 * @param {import('../judging/speed-adjustment.js').SpeedAdjustment | null} adjustment the run's costs at one cpu speed; null: as measured
 */
function summarize (group, seed, adjustment) {
  const allOk = group.filter((record) => record.status === 'ok' && record.summary)
  const ok = runsThatCount(group)
  const rates = ok.map((record) => /** @type {NonNullable<typeof record.summary>} */ (record.summary).requestsPerSec.mean)
  const [first] = group
  const cost = cellCpuCost(costRunsThatCount(group), adjustment)
  return {
    sut: first.sut.label,
    scenario: first.scenario.name,
    connections: first.load.connections,
    runs: ok.length,
    excluded: group.length - allOk.length,
    // A cell whose every ok run was disturbed keeps them, counted, so that a report can say its figure is the machine's too.
    disturbedRuns: ok.filter((record) => record.interference?.disturbed === true).length,
    disturbedLeftOut: allOk.length - ok.length,
    requestsPerSecRuns: rates,
    runBlocks: ok.map(blockOf),
    cpuCost: cost?.cost ?? null,
    costBlocks: cost?.blocks ?? [],
    requestsPerSec:
      rates.length === 0
        ? { median: 0, mean: 0, ci95: /** @type {[number, number] | null} */ (null), cv: /** @type {number | null} */ (null) }
        : {
            median: roundTo(median(rates), 1),
            mean: roundTo(mean(rates), 1),
            ci95:
              rates.length < 2
                ? null
                : /** @type {[number, number]} */ (bootstrapMedianInterval(rates, { seed }).map((value) => roundTo(value, 1))),
            cv: rates.length < 2 ? null : roundTo(sampleStandardDeviation(rates) / mean(rates), 4)
          },
    latencyMs:
      ok.length === 0
        ? null
        : mergedLatencyMs(ok.map((record) => /** @type {NonNullable<typeof record.summary>} */ (record.summary).latencyHistogramUs))
  }
}

/**
 * The runs of one cell that its figures are made of: the ok ones, and of those only the clean ones where it has any. A disturbed run
 * measured the machine's other work too: where the cell has clean runs, its figure is theirs alone.
 * @param {Record[]} group every run of one (SUT, scenario, connections)
 * @param {(record: Record) => boolean} [disturbed] whether a run was disturbed for the figure (by default: judged so at all)
 * @returns {Record[]}
 */
export function runsThatCount (group, disturbed = (/** @type {Record} */ record) => record.interference?.disturbed === true) {
  const allOk = group.filter((record) => record.status === 'ok' && record.summary)
  const clean = allOk.filter((record) => !disturbed(record))
  return clean.length > 0 ? clean : allOk
}

/**
 * The runs of one cell that its cost per request is made of: as runsThatCount, a run disturbed only where the SUT's own cpus were. A run
 * whose load generator alone lost its cpus measured the SUT's cpu per request as a clean one does (judging/disturbance.js).
 * @param {Record[]} group every run of one (SUT, scenario, connections)
 * @returns {Record[]}
 */
export const costRunsThatCount = (group) =>
  runsThatCount(group, (record) => sutCpusDisturbed(record.interference, record.summary?.interference))

/** @param {Noise} noise */
const roundedNoise = ({ sdLogWithoutBlocks, ...noise }) => ({
  ...noise,
  pooledSdLog: roundTo(noise.pooledSdLog, 6),
  ...(sdLogWithoutBlocks === undefined ? {} : { sdLogWithoutBlocks: roundTo(sdLogWithoutBlocks, 6) })
})

/**
 * The block a run was measured in, as the rank groups pair runs: its round, and how many times it was measured again. A block measured
 * again is measured again whole (suite/remeasure.js), so its new runs pair with each other.
 * @param {import('./result-record.js').ResultRecord} record
 */
export const blockOf = (record) => `${record.repeat?.index}.${record.interference?.earlierAttempts?.length ?? 0}`

/**
 * A cell's cpu cost per request from its runs that went in: the geometric mean, and whether the SUT was cpu-bound in each.
 * @param {import('./result-record.js').ResultRecord[]} ok
 * @param {import('../judging/speed-adjustment.js').SpeedAdjustment | null} adjustment the run's costs at one cpu speed; null: as measured
 * @returns {{ cost: CellCpuCost, blocks: string[] } | null} blocks: the block of each of cost's runs
 */
function cellCpuCost (ok, adjustment) {
  const withCost = ok.flatMap((record) => record.summary?.cpuCost ? [{ record, cost: record.summary.cpuCost }] : [])
  const costs = withCost.map((entry) => entry.cost)
  const counted = withCost.filter((entry) => (entry.cost.cpuUsPerRequest ?? 0) > 0)
  const measuredRuns = counted.map((entry) => /** @type {number} */ (entry.cost.cpuUsPerRequest))
  const runs = adjustment
    ? counted.map((entry) => roundTo(/** @type {number} */ (adjustment.adjust(entry.cost)), 3))
    : measuredRuns
  if (runs.length === 0) return null
  const shares = costs.map((cost) => cost.sutCpuSharePct)
  const known = /** @type {number[]} */ (shares.filter((share) => share !== null))
  return {
    blocks: counted.map((entry) => blockOf(entry.record)),
    cost: {
      cpuUsPerRequestRuns: runs,
      center: roundTo(Math.exp(mean(runs.map(Math.log))), 3),
      cpuSource: costs[0].cpuSource,
      speedAdjusted: adjustment ? { referenceCpuUsPerChunk: adjustment.referenceCpuUsPerChunk, measuredRuns } : null,
      sutCpuSharePct: known.length === 0 ? null : roundTo(mean(known), 1),
      notCpuBound: notCpuBoundReason({ sutCpuSharePcts: shares, waitsOnIo: ok[0].scenario.waitsOnIo === true })
    }
  }
}

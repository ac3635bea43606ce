// @ts-check
// The connections sweep of a capacity cell: after the rate search, closed loops on the same launch of the SUT at each level of
// connections (10 → 10,000 by default), each recorded with its rate, its latency and what failed: errors (refused or reset connections,
// responses lost), timeouts, and answers of the wrong status or body. Across a SUT's launches, where failures begin and how p99 grows with
// the connections. A level is a closed loop, as every published connection sweep of these frameworks is: latency from each send.
import { median } from 'simple-statistics'
import { formatInteger, formatMs } from '../../platform/text/format.js'
import { roundTo } from '../../platform/util/numbers.js'
import { takenByOthersPct } from './capacity-step.js'

/**
 * @typedef {import('../../records/result-record.js').ResultRecord} ResultRecord
 *
 * @typedef {object} SweepLevel one level of a cell's sweep
 * @property {number} connections
 * @property {number} requestsPerSec responses per second over the measured phase
 * @property {{ p50: number, p90: number, p99: number, p99_9: number } | null} latencyMs null: no response
 * @property {number} requests @property {number} errors refused or reset connections and responses lost, timeouts among them
 * @property {number} timeouts @property {number} failed responses of the wrong status or body
 * @property {number | null} sutCpuPct @property {number | null} generatorCpuPct in % of one core
 * @property {boolean} generatorBound the generator's cpu set the pace: the level measured the generator as much as the SUT
 * @property {number | null} othersCpuPct the most other processes took of the SUT's or the generator's cpus, in %
 * @property {boolean} cutShort interrupted, or the SUT exited during it
 *
 * @typedef {object} SweepRowLevel one level over a SUT's launches
 * @property {number} connections @property {number} launches how many launches measured it
 * @property {number | null} requestsPerSec the launches' median @property {number | null} p99Ms the launches' median
 * @property {number} failingLaunches launches with any error, timeout or wrong answer at this level, or no response at all
 * @property {number} failures errors, timeouts and wrong answers, summed over the launches
 * @property {boolean} generatorBound in any launch
 *
 * @typedef {object} SweepRow one SUT on one scenario
 * @property {string} sut @property {SweepRowLevel[]} levels by connections
 * @property {number | null} failuresFrom the fewest connections at which any launch failed a request; null: none failed
 */

/**
 * The levels the sweep measures, in order, each by `measureLevel`; stops at the first level cut short (the run interrupted, or the SUT
 * gone).
 * @param {number[]} levels @param {(connections: number) => Promise<SweepLevel>} measureLevel
 * @param {(level: SweepLevel) => void} keep called with each level the moment it is measured
 */
export async function sweepConnections (levels, measureLevel, keep) {
  for (const connections of levels) {
    const level = await measureLevel(connections)
    keep(level)
    if (level.cutShort) return
  }
}

/**
 * @param {number} connections @param {import('../../load/load-plan.js').PhaseSummary | null} summary the level's measured phase
 * @param {boolean} cutShort
 * @returns {SweepLevel}
 */
export function sweepLevel (connections, summary, cutShort) {
  const latency = summary?.latencyMs ?? null
  return {
    connections,
    requestsPerSec: summary ? roundTo(summary.requestsPerSec.mean, 1) : 0,
    latencyMs: latency ? { p50: latency.p50, p90: latency.p90, p99: latency.p99, p99_9: latency.p99_9 } : null,
    requests: summary?.requests ?? 0,
    errors: summary?.errors ?? 0,
    timeouts: summary?.timeouts ?? 0,
    failed: summary ? summary.unexpectedStatus + summary.mismatches : 0,
    sutCpuPct: summary?.resources?.targets.sut?.cpuPctMean ?? null,
    generatorCpuPct: summary?.generatorCpuPct ?? null,
    generatorBound: summary?.generatorBound ?? false,
    othersCpuPct: takenByOthersPct(summary?.interference ?? null),
    cutShort: cutShort || summary === null
  }
}

/** @param {SweepLevel} level @returns {number} errors (timeouts among them, as every phase summary counts them) and wrong answers */
const failuresOf = (level) => level.errors + level.failed

/**
 * Each SUT's sweep over its launches: each level's medians over the launches that measured it in full, and where failures begin.
 * @param {ResultRecord[]} records one scenario's, of any SUTs
 * @returns {SweepRow[]} in the order the SUTs first appear; SUTs without a sweep left out
 */
export function sweepRows (records) {
  /** @type {Map<string, SweepLevel[][]>} */
  const bySut = new Map()
  for (const record of records) {
    const levels = (record.capacity?.connectionSweep ?? []).filter((level) => !level.cutShort)
    if (levels.length === 0) continue
    bySut.set(record.sut.label, [...(bySut.get(record.sut.label) ?? []), levels])
  }
  return [...bySut].map(([sut, launches]) => {
    const connections = [...new Set(launches.flat().map((level) => level.connections))].sort((a, b) => a - b)
    const levels = connections.map((count) => rowLevel(count, launches.flat().filter((level) => level.connections === count)))
    const failing = levels.find((level) => level.failingLaunches > 0)
    return { sut, levels, failuresFrom: failing?.connections ?? null }
  })
}

/** @param {number} connections @param {SweepLevel[]} measured the launches' @returns {SweepRowLevel} */
function rowLevel (connections, measured) {
  const p99s = measured.map((level) => level.latencyMs?.p99).filter((value) => typeof value === 'number')
  return {
    connections,
    launches: measured.length,
    requestsPerSec: measured.length === 0 ? null : roundTo(median(measured.map((level) => level.requestsPerSec)), 1),
    p99Ms: p99s.length === 0 ? null : roundTo(median(p99s), 3),
    failingLaunches: measured.filter((level) => failuresOf(level) > 0 || level.requests === 0).length,
    failures: measured.reduce((sum, level) => sum + failuresOf(level), 0),
    generatorBound: measured.some((level) => level.generatorBound)
  }
}

/**
 * A scenario's sweep as a table: a column per level (the median p99 over the launches, and what failed), and where failures begin.
 * @param {SweepRow[]} rows
 * @returns {{ columns: string[], figureColumns: number[], cells: string[][] }}
 */
export function sweepTable (rows) {
  const levels = [...new Set(rows.flatMap((row) => row.levels.map((level) => level.connections)))].sort((a, b) => a - b)
  const columns = ['framework', ...levels.map((count) => `p99 at ${formatInteger(count)}`), 'failures from']
  const cells = rows.map((row) => [
    row.sut,
    ...levels.map((count) => levelText(row.levels.find((level) => level.connections === count))),
    row.failuresFrom === null
      ? `none to ${formatInteger(Math.max(...row.levels.map((level) => level.connections)))}`
      : `${formatInteger(row.failuresFrom)} connections`
  ])
  return { columns, figureColumns: levels.map((_, at) => at + 1), cells }
}

/** @param {SweepRowLevel | undefined} level @returns {string} */
function levelText (level) {
  if (!level) return '-'
  const failed = level.failures > 0 ? ` (${formatInteger(level.failures)} failed)` : ''
  return `${level.p99Ms === null ? 'no response' : `${formatMs(level.p99Ms)} ms`}${failed}${level.generatorBound ? ' gen' : ''}`
}

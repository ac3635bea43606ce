// @ts-check
// A run's capacities, per scenario: each SUT's launches (each cell a fresh launch of the SUT, rounds interleaved across SUTs), their
// figure (the geometric mean of the launches' capacities) with its 95% interval and rank group, as the wall-clock tables have them
// (judging/stats/rank-groups.js). A launch that held not even the lowest step is below it, not 0: a SUT with any such launch has the
// median of its launches instead, with the median's interval and its confidence (launch-median.js), is placed by it and not ranked, and
// says how many launches held nothing and why.
import { rankGroups } from '../../judging/stats/rank-groups.js'
import { rankText } from '../../records/rank-text.js'
import { formatInteger } from '../../platform/text/format.js'
import { censoredMedian } from './launch-median.js'

/**
 * @typedef {import('../../records/result-record.js').ResultRecord} ResultRecord
 * @typedef {object} CapacityRow one SUT on one scenario
 * @property {string} sut @property {string} scenario
 * @property {number[]} launches each ok launch's capacity (req/s), in run order
 * @property {number} notOk launches that did not end ok
 * @property {number} disturbed ok launches other processes disturbed (judging/disturbance.js), measured again where the budget allowed
 * @property {number | null} center geometric mean of the launches; the median when any launch held nothing (null when that median is
 *   itself a launch that held nothing, or no launch was ok)
 * @property {import('./launch-median.js').CensoredMedian | null} median the launches' median and its interval, when any held nothing
 * @property {string[]} heldNothing what stopped each launch that held not even the lowest step, in run order
 * @property {[number, number] | null} interval95 null: one launch per SUT, or not ranked
 * @property {{ best: number, worst: number, of: number } | null} rank among the SUTs of the scenario whose every launch held a rate
 * @property {number | null} ceilingPerSec the closed-loop ceilings' geometric mean
 * @property {string} limit what stopped the last launch going higher, or why it was not ok
 * @property {{ held: number, confirmed: number }} measuredAgain over the ok launches, the steps not held at first and measured again
 *   (step-confirmation.js): held on a later attempt, or not held on any (the failure confirmed)
 * @property {string} objective
 * @property {ResultRecord[]} records the SUT's results on the scenario, in run order
 */

/** @param {number[]} values each > 0 @returns {number} */
const geometricMean = (values) => Math.exp(values.reduce((sum, value) => sum + Math.log(value), 0) / values.length)

/**
 * @param {ResultRecord[]} records a run's
 * @returns {Map<string, CapacityRow[]>} per scenario, its rows, highest capacity first
 */
export function capacityTable (records) {
  /** @type {Map<string, Map<string, ResultRecord[]>>} */
  const byScenario = new Map()
  for (const record of records) {
    const suts = byScenario.get(record.scenario.name) ?? new Map()
    suts.set(record.sut.label, [...(suts.get(record.sut.label) ?? []), record])
    byScenario.set(record.scenario.name, suts)
  }
  /** @type {Map<string, CapacityRow[]>} */
  const tables = new Map()
  for (const [scenario, suts] of byScenario) {
    const rows = [...suts].map(([sut, group]) => rowOf(sut, scenario, group))
    const ranked = rows.filter((row) => row.launches.length > 0 && row.launches.every((rate) => rate > 0))
    if (ranked.length > 0) {
      const ranking = rankGroups(ranked.map((row) => row.launches))
      ranked.forEach((row, at) => {
        row.center = ranking.cells[at].center
        row.interval95 = ranking.cells[at].interval95
        row.rank = ranking.cells[at].rank
      })
    }
    tables.set(scenario, rows.sort((a, b) => sortKey(b) - sortKey(a)))
  }
  return tables
}

/** @param {CapacityRow} row @returns {number} where it stands: by its figure; a median below the lowest step under every figure */
const sortKey = (row) => row.center ?? (row.median ? 0 : -1)

/** @param {string} sut @param {string} scenario @param {ResultRecord[]} group @returns {CapacityRow} */
function rowOf (sut, scenario, group) {
  const ok = group.filter((record) => record.status === 'ok' && typeof record.capacity?.capacityPerSec === 'number')
  const launches = ok.map((record) => /** @type {number} */ (record.capacity?.capacityPerSec))
  const ceilings = ok.map((record) => record.capacity?.ceiling?.requestsPerSec ?? 0).filter((rate) => rate > 0)
  const last = group[group.length - 1]
  const heldNothing = ok.filter((record) => record.capacity?.capacityPerSec === 0).map((record) => record.capacity?.limit ?? '-')
  const median = heldNothing.length > 0 ? censoredMedian(launches, last.load.capacity?.minRatePerSec ?? 0) : null
  return {
    sut,
    scenario,
    launches,
    notOk: group.length - ok.length,
    disturbed: ok.filter((record) => record.interference?.disturbed).length,
    center: median && !median.median.censored ? median.median.perSec : null,
    median,
    heldNothing,
    interval95: null,
    rank: null,
    ceilingPerSec: ceilings.length > 0 ? geometricMean(ceilings) : null,
    limit: last.status === 'ok' ? last.capacity?.limit ?? '-' : `${last.status}: ${(last.reason ?? '').split('\n')[0]}`,
    measuredAgain: measuredAgainOf(ok),
    objective: last.capacity?.objective ?? last.load.capacity?.objective ?? '-',
    records: group
  }
}

/** @param {ResultRecord[]} records ok launches @returns {CapacityRow['measuredAgain']} */
function measuredAgainOf (records) {
  const steps = records.flatMap((record) => record.capacity?.steps ?? []).filter((step) => (step.attempts?.length ?? 0) > 0)
  const held = steps.filter((step) => step.held).length
  return { held, confirmed: steps.length - held }
}

/** @param {CapacityRow['measuredAgain']} again @returns {string} what the table adds to what stopped it; '' when nothing was */
function measuredAgainText ({ held, confirmed }) {
  if (held + confirmed === 0) return ''
  const steps = (/** @type {number} */ count) => `${count} step${count === 1 ? '' : 's'}`
  return ` (measured again: ${[held > 0 ? `${steps(held)} held on a later attempt` : '', confirmed > 0
    ? `${steps(confirmed)} failed every attempt`
    : ''].filter(Boolean).join(', ')})`
}

/** The columns of a capacity table, and those that hold figures (aligned right). */
export const CAPACITY_COLUMNS = Object.freeze(['framework', 'capacity req/s', '95% interval', 'rank', 'launches', 'closed-loop req/s',
  'capacity / closed loop', 'what stopped it'])
export const CAPACITY_FIGURE_COLUMNS = Object.freeze([1, 2, 3, 4, 5, 6])

/**
 * A row's cells, as the terminal and report.md write them.
 * @param {CapacityRow} row @returns {string[]}
 */
export function capacityCells (row) {
  const zero = row.heldNothing.length
  const median = row.median
  return [
    row.sut,
    median ? `${valueText(median.median)} (median)` : row.center === null ? '-' : formatInteger(row.center),
    median
      ? `${valueText(median.interval[0])}–${valueText(median.interval[1])} (${median.confidencePct} %)`
      : row.interval95 ? `${formatInteger(row.interval95[0])}–${formatInteger(row.interval95[1])}` : '-',
    row.rank ? rankText(row.rank) : zero > 0 ? `not ranked (${zero} of ${row.launches.length} launches held nothing)` : '-',
    `${row.launches.length}${row.disturbed > 0 ? ` (${row.disturbed} disturbed)` : ''}${row.notOk > 0 ? ` (+${row.notOk} not ok)` : ''}`,
    row.ceilingPerSec === null ? '-' : formatInteger(row.ceilingPerSec),
    row.center !== null && row.ceilingPerSec ? `${Math.round(row.center / row.ceilingPerSec * 100)} %` : '-',
    `${row.limit}${measuredAgainText(row.measuredAgain)}${heldNothingText(row)}`
  ]
}

/** @param {import('./launch-median.js').LaunchValue} value @returns {string} */
const valueText = (value) => value.censored ? `< ${formatInteger(value.perSec)}` : formatInteger(value.perSec)

/**
 * @param {CapacityRow} row
 * @returns {string} why the launches that held nothing did not, each distinct reason once; '' when what stopped the last launch says it
 */
function heldNothingText (row) {
  const reasons = [...new Set(row.heldNothing)].filter((reason) => reason !== row.limit)
  return reasons.length === 0 ? '' : `; held nothing: ${reasons.join(' / ')}`
}

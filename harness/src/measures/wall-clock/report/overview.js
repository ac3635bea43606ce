// @ts-check
// The wall-clock measure's overview (../../overview.js): each framework's req/s in each scenario (the geometric mean of its rounds) with
// its rank group in the column, marked where the figure measures the generator or the machine more than the framework, where it rests
// on rounds other processes disturbed, and where a result disagrees with itself. Every figure comes from the run's aggregates. A run ranked
// on cost (`--rank-by`) places its rank groups beside each cost, shades and orders by the cost (lower first), and says so.
import { atMachineLimit } from '../../../load/engines/index.js'
import { GENERATOR_BOUND_RULE } from '../../../platform/resources/resource-defaults.js'
import { costNote } from '../../overview-cost.js'
import { RANK_FIGURE_WORDS } from '../../../judging/rank-figure.js'
import { RANK_FDR } from '../../../judging/stats/rank-groups.js'
import { rankGroupText } from '../../../records/rank-text.js'
import { BEST_FIRST_ORDER, bestFirst, columnShades } from '../../overview.js'
import { noiseBudgetLine } from './noise-budget.js'
import { reportRows } from './report-rows.js'

/** @type {readonly import('../../overview.js').OverviewMark[]} */
export const WALL_CLOCK_MARKS = Object.freeze([
  { mark: '†', meaning: `generator-bound (${GENERATOR_BOUND_RULE}): it measures the load generator more than the framework` },
  { mark: '‡', meaning: 'the limit of this machine: the native engine, the fastest here, was generator-bound' },
  {
    mark: '!',
    meaning: 'disturbed: other processes or the hypervisor took a share of the cpus while every round it rests on was measured'
  },
  { mark: '?', meaning: 'a result disagrees with itself (a consistency check failed; report.md names it)' },
  { mark: '✗', meaning: 'a round was not ok (the warnings say why): the figure rests on the others' }
])

/**
 * The marks of one framework in one column, from its results and its aggregate.
 * @param {import('./report-rows.js').ReportRow} row
 * @returns {string[]}
 */
function marksOf (row) {
  const bound = row.records.filter((record) => record.summary?.generatorBound)
  return [
    bound.length > 0 && !bound.some(atMachineLimit) ? '†' : null,
    bound.some(atMachineLimit) ? '‡' : null,
    (row.aggregate?.disturbedRuns ?? 0) > 0 ? '!' : null,
    row.records.some((record) => record.consistency?.passed === false) ? '?' : null,
    row.aggregate && row.aggregate.excluded > 0 ? '✗' : null
  ].filter((mark) => mark !== null)
}

/**
 * The cpu cost beside a cell's figure.
 * @param {import('../../../records/aggregate-runs.js').Aggregate | null | undefined} aggregate
 * @returns {import('../../overview.js').OverviewCost | null}
 */
function costOf (aggregate) {
  const cost = aggregate?.cpuCost
  return cost ? { cpuUsPerRequest: cost.center, sutCpuSharePct: cost.sutCpuSharePct, marked: cost.notCpuBound !== null } : null
}

/**
 * Each framework's row: in each column its req/s, its rank group, its shade on the column's scale (of the cost, lower better, where the
 * column was ranked on cost) and its cost.
 * @param {{ label: string, rows: import('./report-rows.js').ReportRow[] }[]} columns
 * @returns {import('../../overview.js').OverviewRow[]}
 */
function overviewRows (columns) {
  /** @type {Map<string, import('../../overview.js').OverviewRow>} */
  const frameworks = new Map()
  columns.forEach((column, at) => {
    const onCost = column.rows.some((row) => row.aggregate?.rankedBy === 'cost')
    const shades = onCost
      ? columnShades(column.rows.map((row) => row.aggregate?.cpuCost?.center ?? null), 'lower')
      : columnShades(column.rows.map((row) => row.aggregate?.requestsPerSec.center ?? null), 'higher')
    column.rows.forEach((row, index) => {
      const framework = frameworks.get(row.sut) ?? { framework: row.sut, version: row.version, cells: columns.map(() => null) }
      frameworks.set(row.sut, framework)
      framework.cells[at] = {
        value: row.aggregate?.requestsPerSec.center ?? null,
        status: row.aggregate ? 'ok' : row.records[0]?.status ?? '-',
        group: rankGroupText(row.aggregate),
        ...onCost ? { rankedOnCost: true } : {},
        shade: shades[index],
        marks: marksOf(row),
        cost: costOf(row.aggregate)
      }
    })
  })
  return [...frameworks.values()]
}

/**
 * What the rank groups are, on which figure, or why there are none.
 * @param {boolean} grouped @param {boolean} onCost @param {boolean} blocked the pairs were judged within the blocks of the rounds
 */
function groupsSentence (grouped, onCost, blocked) {
  if (!grouped) return 'Req/s of one round per cell: no rank groups (give `--repeats 2` or more for them).'
  const tests = blocked ? 't tests within the blocks a pair shares, every SUT of a scenario back to back' : 'Welch t tests'
  const method = `(95% intervals on ln ${onCost ? 'cost' : 'req/s'}, ${tests}, Benjamini–Hochberg at a ${RANK_FDR * 100}% false ` +
    'discovery rate; docs/measuring.md, "Orders with their uncertainty").'
  return onCost
    ? 'Ranked on cost (`--rank-by cost`), lower first: beside each cpu µs per request (the geometric mean of the rounds) its rank ' +
      `group, (2–4): the data places it anywhere from 2nd to 4th in its column ${method} Req/s: the geometric mean of the rounds.`
    : 'Req/s: the geometric mean of the rounds; beside it the rank group, (2–4): the data places it anywhere from 2nd to 4th in its ' +
      `column ${method}`
}

/**
 * @param {import('../../../records/read-run.js').RunData} run
 * @returns {import('../../overview.js').Overview | null} null for a run without results
 */
export function wallClockOverview (run) {
  if (run.records.length === 0) return null
  const perScenario = reportRows(run)
  const sweep = new Set(run.records.map((record) => record.load.connections)).size > 1
  /** @type {{ label: string, rows: import('./report-rows.js').ReportRow[] }[]} */
  const columns = [...perScenario].flatMap(([scenario, rows]) => [...new Set(rows.map((row) => row.connections))]
    .map((connections) => ({
      label: sweep ? `${scenario} @${connections}` : scenario,
      rows: rows.filter((row) => row.connections === connections)
    })))
  const onCost = run.aggregates.some((aggregate) => aggregate.rankedBy === 'cost')
  const frameworks = overviewRows(columns)
  const grouped = run.aggregates.some((aggregate) => aggregate.noise)
  const costs = run.aggregates.flatMap((aggregate) => aggregate.cpuCost ? [aggregate.cpuCost] : [])
  return {
    unit: 'req/s',
    better: 'higher',
    rankedOn: onCost ? `${RANK_FIGURE_WORDS.cost}, lower first` : null,
    columns: columns.map((column) => column.label),
    rows: onCost
      ? bestFirst(frameworks, 'lower', (cell) => cell.rankedOnCost ? cell.cost?.cpuUsPerRequest ?? null : null)
      : bestFirst(frameworks, 'higher'),
    marks: [...WALL_CLOCK_MARKS],
    order: `Frameworks ${onCost ? BEST_FIRST_ORDER.replace('figures', 'costs') : BEST_FIRST_ORDER}.`,
    costNote: costs.length === 0 ? null : costNote(costs),
    groups: groupsSentence(grouped, onCost, run.aggregates.some((aggregate) => aggregate.noise?.sdLogWithoutBlocks !== undefined)),
    // What the machine's spread said before the run (the default profile's rounds sized from it), then what the run's own rounds say.
    caveats: [run.index.noisePlan?.line ?? null, noiseBudgetLine(run)].filter((line) => line !== null)
  }
}

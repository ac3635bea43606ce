// @ts-check
// What a comparison of capacity results reads and writes: each launch's capacity (the verdict's; bigger is better) and its closed-loop
// ceiling shown beside it, one threshold for every row, launches paired only when they were made in alternating rounds. Two sides
// measured against different objectives are different experiments: their rows are not judged.
import { formatInteger } from '../../platform/text/format.js'
import { changeCell, pValueCell, rateCell, runsCell, verdictCell } from '../comparison-cells.js'
import { parseObjective } from './objective.js'

/** @typedef {import('../../records/result-record.js').ResultRecord} ResultRecord */

/** The threshold of a verdict on capacity when none is given, in percent: the search's resolution is 4 %, a launch's spread more. */
export const CAPACITY_THRESHOLD_PCT = 10

/** @param {ResultRecord} record @returns {string} */
const objectiveOf = (record) => record.capacity?.objective ?? record.load.capacity?.objective ?? '-'

/**
 * What an objective asks, however it was written (`p99<=10ms` and `p99<=10000us` ask the same): its percentiles and bounds, in order.
 * @param {string} text @returns {string}
 */
function objectiveMeaning (text) {
  const parsed = parseObjective(text)
  return 'objective' in parsed ? JSON.stringify(parsed.objective.terms.map(({ percentile, maxMs }) => [percentile, maxMs])) : text
}

/** @type {import('../comparison-spec.js').ComparisonSpec} */
export const CAPACITY_COMPARISON = Object.freeze({
  metrics: {
    capacityPerSec: {
      pick: (/** @type {ResultRecord} */ record) => [record.capacity?.capacityPerSec],
      digits: 0,
      biggerIsBetter: true,
      label: 'capacity req/s',
      // Not one of Bencher's built-in measures: Bencher creates a measure of this name on the first report that carries it.
      bmf: { measure: 'capacity', scale: 1 }
    },
    ceilingPerSec: {
      pick: (/** @type {ResultRecord} */ record) => [record.capacity?.ceiling?.requestsPerSec],
      digits: 0,
      biggerIsBetter: true,
      label: 'closed-loop req/s',
      bmf: { measure: 'throughput', scale: 1 }
    }
  },
  primary: 'capacityPerSec',
  others: [],
  failing: [],
  shown: ['ceilingPerSec'],
  pairsByPosition: false,
  pairUnit: 'round',
  valueUnit: 'run',
  threshold: { fixedPercent: CAPACITY_THRESHOLD_PCT },
  warmup: false,
  primaryFallback: () => null,
  fallbackMetric: null,
  settingsProblem: (records) => {
    /** @type {Map<string, string>} each meaning, as first written */
    const objectives = new Map()
    for (const { record } of records) {
      const text = objectiveOf(record)
      if (!objectives.has(objectiveMeaning(text))) objectives.set(objectiveMeaning(text), text)
    }
    return objectives.size > 1 ? `measured against different objectives (${[...objectives.values()].join(' and ')})` : null
  },
  rowNotes: () => [],
  verdictsOn: 'capacity (req/s within the objective)',
  testText: (settings) => settings.paired
    ? 'two-sided Wilcoxon signed-rank over the per-round ratios of launches made in alternating rounds'
    : 'two-sided Mann–Whitney U over the launches',
  columns: () => ({
    head: ['framework', 'scenario', 'launches', 'base capacity', 'cand capacity', 'change (95% CI)', 'p', 'base closed loop',
      'cand closed loop', 'verdict'],
    alignRight: [2, 3, 4, 5, 6, 7, 8],
    cells: (row) => [row.sut, row.scenario, runsCell(row),
      rateCell(row.capacityPerSec ?? null, 'baseline'), rateCell(row.capacityPerSec ?? null, 'candidate'),
      changeCell(row.capacityPerSec ?? null), pValueCell(row.capacityPerSec ?? null), rateCell(row.ceilingPerSec ?? null, 'baseline'),
      rateCell(row.ceilingPerSec ?? null, 'candidate'), verdictCell(row)]
  }),
  secondaryTables: () => [],
  gabFormats: {
    'gab-capacity': {
      entry: (row) => ({ figures: row.capacityPerSec, suffix: ' capacity' }),
      biggerIsBetter: true,
      unit: 'req/s',
      scale: 1,
      format: formatInteger,
      holds: 'capacity req/s'
    }
  },
  recordProblem: (record) => typeof record.capacity?.capacityPerSec === 'number'
    ? null
    : { field: 'capacity.capacityPerSec', expected: 'a number in an ok result' },
  // Sides of different objectives are refused row by row (settingsProblem), naming both.
  checkSides: () => {}
})

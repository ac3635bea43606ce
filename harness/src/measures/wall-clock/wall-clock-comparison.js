// @ts-check
// What a comparison of wall-clock results reads and writes: req/s (the verdict's), p99 latency and the SUT's cpu µs per request (each with
// a verdict of its own) per run, one threshold for every row,
// runs paired only when they were made in alternating rounds, and each side's warm-up and runtime events beside the verdict.
import { formatInteger, formatMs } from '../../platform/text/format.js'
import { changeCell, costCell, p99Cell, pValueCell, rateCell, runsCell, verdictCell } from '../comparison-cells.js'

/** @typedef {import('../../records/result-record.js').ResultRecord} ResultRecord */

/** The threshold of a verdict on wall-clock results when none is given, in percent of req/s. */
export const WALL_CLOCK_THRESHOLD_PCT = 5

/** @type {import('../comparison-spec.js').ComparisonSpec} */
export const WALL_CLOCK_COMPARISON = Object.freeze({
  metrics: {
    requestsPerSec: {
      pick: (/** @type {ResultRecord} */ record) => [record.summary?.requestsPerSec.mean],
      digits: 1,
      biggerIsBetter: true,
      label: 'req/s',
      bmf: { measure: 'throughput', scale: 1 }
    },
    p99Us: {
      pick: (/** @type {ResultRecord} */ record) => {
        const ms = record.summary?.latencyMs?.p99
        return [typeof ms === 'number' ? ms * 1000 : null]
      },
      digits: 0,
      biggerIsBetter: false,
      label: 'p99',
      // Bencher's built-in latency measure is in nanoseconds.
      bmf: { measure: 'latency', scale: 1000 }
    },
    cpuUsPerRequest: {
      pick: (/** @type {ResultRecord} */ record) => [record.summary?.cpuCost?.cpuUsPerRequest],
      digits: 3,
      biggerIsBetter: false,
      label: 'cpu µs per request'
    }
  },
  primary: 'requestsPerSec',
  others: ['p99Us', 'cpuUsPerRequest'],
  failing: [],
  shown: [],
  pairsByPosition: false,
  pairUnit: 'round',
  valueUnit: 'run',
  threshold: { fixedPercent: WALL_CLOCK_THRESHOLD_PCT },
  warmup: true,
  primaryFallback: () => null,
  fallbackMetric: null,
  settingsProblem: () => null,
  rowNotes: (compared) => [
    ...(compared.p99Us ? [] : ['p99 latency is missing from some results: not compared']),
    ...(compared.cpuUsPerRequest ? [] : ['the SUT\'s cpu per request is missing from some results (written before it was): not compared'])
  ],
  verdictsOn: 'req/s',
  testText: (settings) =>
    settings.paired
      ? 'two-sided Wilcoxon signed-rank over the per-round ratios of runs made in alternating rounds; Mann–Whitney U where a row ' +
        'says it could ' +
        'not pair them'
      : 'two-sided Mann–Whitney U over the repeats',
  columns: () => ({
    head: [
      'framework',
      'scenario',
      'conns',
      'runs',
      'base req/s',
      'cand req/s',
      'change (95% CI)',
      'p',
      'base p99 ms',
      'cand p99 ms',
      'p99 change',
      'base cpu µs/req',
      'cand cpu µs/req',
      'cpu µs/req change',
      'cpu verdict',
      'verdict'
    ],
    alignRight: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13],
    cells: (row) => [
      row.sut,
      row.scenario,
      String(row.connections),
      runsCell(row),
      rateCell(row.requestsPerSec, 'baseline'),
      rateCell(row.requestsPerSec, 'candidate'),
      changeCell(row.requestsPerSec),
      pValueCell(row.requestsPerSec),
      p99Cell(row.p99Us, 'baseline'),
      p99Cell(row.p99Us, 'candidate'),
      changeCell(row.p99Us),
      costCell(row.cpuUsPerRequest, 'baseline'),
      costCell(row.cpuUsPerRequest, 'candidate'),
      changeCell(row.cpuUsPerRequest ?? null),
      row.cpuUsPerRequest?.verdict ?? '-',
      verdictCell(row)
    ]
  }),
  secondaryTables: () => [],
  gabFormats: {
    gab: {
      entry: (row) => ({ figures: row.requestsPerSec, suffix: '' }),
      biggerIsBetter: true,
      unit: 'req/s',
      scale: 1,
      format: formatInteger,
      holds: 'req/s'
    },
    'gab-p99': {
      entry: (row) => ({ figures: row.p99Us, suffix: ' p99' }),
      biggerIsBetter: false,
      unit: 'ms',
      scale: 1 / 1000,
      format: formatMs,
      holds: 'p99 ms'
    }
  },
  recordProblem: (record) =>
    typeof record.summary?.requestsPerSec?.mean === 'number'
      ? null
      : { field: 'summary.requestsPerSec.mean', expected: 'a number in an ok result' },
  checkSides: () => {}
})

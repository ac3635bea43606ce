// @ts-check
// `dyno compare` sets the SUT's cpu µs per request beside req/s with a verdict of its own (smaller is better): a cost that rose while
// req/s held is called regressed on the cost, and the main verdict stays req/s's; results written before the cost was recorded are
// compared on the rest, with a note. The figures are set on copies of a committed real run, never measured.
import { expect, it } from 'vitest'
import { compareRuns } from '../../src/reports/compare/compare-runs.js'
import { formatCompareTable } from '../../src/reports/compare/formats/table.js'
import { formatCompareMarkdown } from '../../src/reports/compare/formats/markdown.js'
import { EIGHT_REPEATS, runWithFigures } from '../support/compare-inputs.js'
import { schemaErrors } from '../support/result-schemas.js'

const RATES = [10_000, 10_200, 9_900, 10_100, 10_050, 9_950, 10_150, 9_850]
const P99_MS = [2, 2.1, 1.9, 2, 2.05, 1.95, 2, 2]

/**
 * A copy of the run whose rounds cost the SUT these µs per request.
 * @param {number} scale the cost's level: 1 the baseline's
 */
const runCosting = (scale) => runWithFigures(EIGHT_REPEATS, {
  requestsPerSec: RATES,
  p99Ms: P99_MS,
  edit: (record, repeat) => {
    const cpuUsPerRequest = 50 * scale * (1 + (repeat % 3 - 1) * 0.01)
    record.summary.cpuCost = {
      cpuUsPerRequest,
      cpuSec: cpuUsPerRequest * record.summary.requests / 1e6,
      cpuSource: 'proc',
      excludes: ['steal', 'other processes'],
      sutCores: 1,
      sutCpuSharePct: 97,
      cpuBound: true
    }
  }
})

it('calls a cost that rose 20 % regressed on the cost, while req/s, unchanged, keeps the row\'s verdict', () => {
  const comparison = compareRuns([runCosting(1)], [runCosting(1.2)], { thresholdPercent: null, paired: false })
  expect(schemaErrors('compare', comparison)).toEqual([])
  const [row] = comparison.rows
  expect(row.verdict).toBe('unchanged')
  expect(row.cpuUsPerRequest?.verdict).toBe('regressed')
  expect(row.cpuUsPerRequest?.baseline?.median).toBeCloseTo(50, 0)
  expect(row.cpuUsPerRequest?.changePercent).toBeCloseTo(20, 0)
  const table = formatCompareTable(comparison)
  for (const column of ['base cpu µs/req', 'cand cpu µs/req', 'cpu µs/req change', 'cpu verdict']) expect(table).toContain(column)
  expect(formatCompareMarkdown(comparison)).toContain('cpu µs/req')
})

it('compares results written before the cost was recorded on the rest, and says the cost is missing', () => {
  const before = runWithFigures(EIGHT_REPEATS, {
    requestsPerSec: RATES,
    p99Ms: P99_MS,
    edit: (record) => {
      delete record.summary.cpuCost
      delete record.scenario.waitsOnIo
    }
  })
  const comparison = compareRuns([before], [runCosting(1)], { thresholdPercent: null, paired: false })
  expect(schemaErrors('compare', comparison)).toEqual([])
  const [row] = comparison.rows
  expect(row.cpuUsPerRequest ?? null).toBeNull()
  expect(row.notes.join(' ')).toContain('cpu per request is missing')
})

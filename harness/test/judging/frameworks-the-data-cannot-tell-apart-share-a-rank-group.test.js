// @ts-check
import { describe, expect, it } from 'vitest'
import { createLatencyHistogram, encodeHistogram } from '../../src/load/latency-histogram.js'
import { aggregateRuns } from '../../src/records/aggregate-runs.js'
import { ONE_ROUND_NOTE, PRIOR_DF, rankGroups } from '../../src/judging/stats/rank-groups.js'
import { studentTQuantile, studentTTwoSidedP } from '../../src/judging/stats/student-t.js'
import { formatAggregateTable } from '../../src/interface/ui/aggregate-table.js'
import { schemaErrors } from '../support/result-schemas.js'

const histogram = (() => {
  const latency = createLatencyHistogram()
  for (const us of [800, 1000, 1200, 5000]) latency.recordValue(us)
  return encodeHistogram(latency)
})()

/**
 * The part of a result record aggregateRuns reads: one round of a cell.
 * @param {string} sut @param {string} scenario @param {number} rate req/s
 * @param {{ status?: string, disturbed?: boolean }} [options]
 * @returns {any}
 */
const round = (sut, scenario, rate, { status = 'ok', disturbed } = {}) => ({
  sut: { label: sut },
  scenario: { name: scenario },
  load: { connections: 100 },
  status,
  ...(disturbed === undefined ? {} : { interference: { disturbed } }),
  summary: status === 'ok' ? { requestsPerSec: { mean: rate }, latencyHistogramUs: histogram } : null
})

/** Two rounds whose logs lie ±sd/√2 around ln(center): geometric mean `center`, sample sd of the logs `sd`. */
const twoRounds = (/** @type {number} */ center, /** @type {number} */ sd) => [
  center * Math.exp(sd / Math.SQRT2),
  center * Math.exp(-sd / Math.SQRT2)
]

/** @param {any[]} records */
const aggregatesOf = (records) => aggregateRuns(records, { seed: 1 })

describe('the Student t distribution', () => {
  it('gives the textbook quantiles and tails', () => {
    expect(studentTQuantile(0.975, 1)).toBeCloseTo(12.706, 3)
    expect(studentTQuantile(0.975, 4)).toBeCloseTo(2.776, 3)
    expect(studentTQuantile(0.975, 24)).toBeCloseTo(2.064, 3)
    expect(studentTQuantile(0.025, 24)).toBeCloseTo(-2.064, 3)
    expect(studentTQuantile(0.99, 10)).toBeCloseTo(2.764, 3)
    // Cauchy (1 degree of freedom): P(|T| ≥ 1) = 1/2; and P(|T| ≥ 2) with 10 degrees of freedom.
    expect(studentTTwoSidedP(1, 1)).toBeCloseTo(0.5, 12)
    expect(studentTTwoSidedP(2, 10)).toBeCloseTo(0.0733880, 6)
    expect(studentTTwoSidedP(0, 3)).toBe(1)
  })
})

describe('a scenario measured in two rounds per cell', () => {
  // 24 SUTs as the default profile has them: A and B 1% apart, C 40% below A, the others 8% apart from each other, all
  // with a 5% spread between rounds, and one whose two rounds disagree by 2× (two steady states across launches).
  const records = [
    ...twoRounds(50_000, 0.05).map((rate) => round('A', 'json', rate, { disturbed: false })),
    ...twoRounds(49_500, 0.05).map((rate) => round('B', 'json', rate)),
    ...twoRounds(30_000, 0.05).map((rate) => round('C', 'json', rate)),
    round('bimodal', 'json', 4_000),
    round('bimodal', 'json', 8_000),
    ...Array.from({ length: 20 }, (_, index) =>
      twoRounds(3_000 * 1.08 ** index, 0.05).map((rate) => round(`sut-${index}`, 'json', rate))
    ).flat(),
    round('never-ok', 'json', 0, { status: 'failed' }),
    round('never-ok', 'json', 0, { status: 'failed' })
  ]
  const aggregates = aggregatesOf(records)
  const cell = (/** @type {string} */ sut) => {
    const found = aggregates.find((aggregate) => aggregate.sut === sut)
    if (!found) throw new Error(`no aggregate of ${sut}`)
    return found
  }

  it('pools the spread of the scenario and gives each figure the geometric mean of its rounds, with an interval', () => {
    expect(cell('A').noise).toEqual({ pooledSdLog: expect.any(Number), df: 24, nu0: PRIOR_DF })
    expect(cell('A').requestsPerSec.center).toBeCloseTo(50_000, 0)
    const [low, high] = /** @type {[number, number]} */ (cell('A').requestsPerSec.interval95)
    expect(low).toBeLessThan(50_000)
    expect(high).toBeGreaterThan(50_000)
    // Symmetric on the log scale.
    expect(Math.log(high / 50_000)).toBeCloseTo(Math.log(50_000 / low), 3)
  })

  it('puts A and B, 1% apart in 5% noise, in one group, and C, 40% below, in a place of its own', () => {
    expect(cell('A').rank).toEqual({ best: 1, worst: 2, of: 24 })
    expect(cell('B').rank).toEqual({ best: 1, worst: 2, of: 24 })
    expect(cell('A').separatedFromNext).toBe(false)
    expect(cell('C').rank).toEqual({ best: 3, worst: 3, of: 24 })
    expect(cell('B').separatedFromNext).toBe(true)
    expect(cell('never-ok').rank).toBeNull()
    expect(cell('never-ok').requestsPerSec.interval95).toBeNull()
  })

  it('keeps a wide interval for a cell whose rounds disagree by 2×, covering both', () => {
    const [low, high] = /** @type {[number, number]} */ (cell('bimodal').requestsPerSec.interval95)
    expect(low).toBeLessThan(4_000)
    expect(high).toBeGreaterThan(8_000)
    const [lowA, highA] = /** @type {[number, number]} */ (cell('A').requestsPerSec.interval95)
    expect(Math.log(high / low)).toBeGreaterThan(1.5 * Math.log(highA / lowA))
    const { best, worst } = /** @type {NonNullable<ReturnType<typeof cell>['rank']>} */ (cell('bimodal').rank)
    expect(worst - best).toBeGreaterThan(10)
  })

  it('leaves a disturbed round out of a cell that has a clean one, and keeps, counted, those of a cell that has none', () => {
    expect(cell('A')).toMatchObject({ runs: 2, disturbedRuns: 0, disturbedLeftOut: 0 })
    const [mixed, allDisturbed] = ['mixed', 'all-disturbed'].map((sut) => aggregatesOf([
      round(sut, 'json', 10_000, { disturbed: sut === 'all-disturbed' }), round(sut, 'json', 2_000, { disturbed: true })
    ])[0])
    expect(mixed).toMatchObject({ runs: 1, disturbedRuns: 0, disturbedLeftOut: 1, requestsPerSecRuns: [10_000] })
    expect(mixed.requestsPerSec.center).toBe(10_000)
    expect(allDisturbed).toMatchObject({ runs: 2, disturbedRuns: 2, disturbedLeftOut: 0, requestsPerSecRuns: [10_000, 2_000] })
    expect(formatAggregateTable([mixed])).toContain('1 (+1 disturbed, left out)')
    expect(formatAggregateTable([allDisturbed])).toContain('2 (2 disturbed)')
  })

  it('writes what the aggregates schema allows, and prints the groups fastest first with what more rounds would tell apart', () => {
    expect(schemaErrors('aggregates', { schemaVersion: 2, runId: 'synthetic', seed: 1, aggregates })).toEqual([])
    const table = formatAggregateTable(aggregates)
    const rows = table.split('\n').filter((line) => /^│\s+[\d–-]+ │/.test(line))
    expect(
      rows.slice(0, 3).map((row) =>
        row
          .split('│')
          .slice(1, 3)
          .map((text) => text.trim())
      )
    ).toEqual([
      ['1–2', 'A'],
      ['1–2', 'B'],
      ['3', 'C']
    ])
    expect(rows[rows.length - 1]).toMatch(/│\s+- │ never-ok /)
    expect(table).toContain('A and B cannot be told apart: not within 1000 rounds')
  })
})

describe('rounds that would tell neighbours apart', () => {
  it('is a number for a close pair with little noise, and none for the same figure', () => {
    const [close, same] = [
      aggregatesOf([
        ...twoRounds(10_000, 0.01).map((rate) => round('E', 'plaintext', rate)),
        ...twoRounds(9_800, 0.01).map((rate) => round('F', 'plaintext', rate))
      ]),
      aggregatesOf([
        round('G', 'plaintext', 9_900),
        round('G', 'plaintext', 10_100),
        round('H', 'plaintext', 10_100),
        round('H', 'plaintext', 9_900)
      ])
    ]
    // ln(10000/9800) = 0.0202 against a moderated sd of 0.01 (ν0 = 2 here): with n rounds each, one pair (α = 2%) and 2(n + 1)
    // degrees of freedom, t(0.99, 8) · √(2 · 0.0001 / 3) = 0.0236 falls short, t(0.99, 10) · √(2 · 0.0001 / 4) = 0.0195 does not.
    expect(close.find((aggregate) => aggregate.sut === 'E')).toMatchObject({ separatedFromNext: false, roundsToSeparateFromNext: 4 })
    expect(formatAggregateTable(close)).toContain('E and F cannot be told apart: 2 more rounds would (4 each)')
    expect(same.map((aggregate) => aggregate.roundsToSeparateFromNext)).toEqual([null, null])
    expect(same[0].requestsPerSec.center).toBe(same[1].requestsPerSec.center)
  })
})

describe('one round per cell', () => {
  it('has no spread to estimate: no intervals, no groups, the plain order, and says so', () => {
    const aggregates = aggregatesOf([round('slow', 'json', 1_000), round('fast', 'json', 3_000), round('middle', 'json', 2_000)])
    expect(aggregates.map((aggregate) => [aggregate.sut, aggregate.rank, aggregate.requestsPerSec.interval95, aggregate.noise])).toEqual([
      ['slow', { best: 3, worst: 3, of: 3 }, null, null],
      ['fast', { best: 1, worst: 1, of: 3 }, null, null],
      ['middle', { best: 2, worst: 2, of: 3 }, null, null]
    ])
    expect(formatAggregateTable(aggregates)).toContain(ONE_ROUND_NOTE)
    expect(rankGroups([[1_000], [3_000]]).noise).toBeNull()
  })
})

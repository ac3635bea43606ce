// @ts-check
// A launch that held not even the lowest step has a capacity below it, not 0: a SUT with such a launch gets the median of its launches,
// with the interval of the median from order statistics and the confidence that interval has, is placed by that median among the others
// and not ranked, and its row says how many launches held nothing and why. Built from result records as data.
import { describe, expect, it } from 'vitest'
import { censoredMedian } from '../../../src/measures/capacity/launch-median.js'
import { capacityCells, capacityTable } from '../../../src/measures/capacity/capacity-table.js'

/**
 * A capacity launch's result, as data: what the table reads of it.
 * @param {string} sut @param {number} capacityPerSec @param {string} limit
 * @returns {any}
 */
const launch = (sut, capacityPerSec, limit) => ({
  status: 'ok',
  reason: null,
  sut: { label: sut },
  scenario: { name: 'json' },
  load: { capacity: { objective: 'p99<=20ms', minRatePerSec: 100 } },
  interference: null,
  capacity: { objective: 'p99<=20ms', capacityPerSec, limit, ceiling: { requestsPerSec: 10_000 }, steps: [] }
})

describe('a launch that held nothing', () => {
  it('is below the lowest step in the median of the launches, whose interval says its confidence', () => {
    expect(censoredMedian([1409, 0, 1006], 100)).toEqual({
      median: { perSec: 1006, censored: false },
      interval: [{ perSec: 100, censored: true }, { perSec: 1409, censored: false }],
      // The lowest and highest of 3 cover the median with 1 − 2 / 2³.
      confidencePct: 75
    })
    expect(censoredMedian([0, 0, 500], 100)?.median).toEqual({ perSec: 100, censored: true })
    // Ten launches: the 2nd lowest and 2nd highest, 1 − 2 · 11 / 1024 = 97.9 %.
    const ten = censoredMedian([0, 5, 6, 7, 8, 9, 10, 12, 13, 14], 1)
    expect(ten?.interval.map((value) => value.perSec)).toEqual([5, 13])
    expect(ten?.confidencePct).toBe(97.9)
    expect(censoredMedian([], 100)).toBeNull()
  })

  it('places its SUT by that median, unranked, and says how many launches held nothing and why', () => {
    const records = [
      launch('fastify', 3408, 'at 3,500 req/s: p99<=20ms not held: 31 ms'),
      launch('express', 1006, 'at 1,100 req/s: p99<=20ms not held: 22 ms'),
      launch('fastify', 0, 'at 100 req/s: not held on 3 attempts; the last: p99<=20ms not held: 16 ms'),
      launch('express', 718, 'at 800 req/s: p99<=20ms not held: 25 ms'),
      launch('fastify', 15_719, 'at 16,000 req/s: p99<=20ms not held: 40 ms'),
      launch('express', 1409, 'at 1,500 req/s: p99<=20ms not held: 21 ms')
    ]
    /** @type {import('../../../src/measures/capacity/capacity-table.js').CapacityRow[]} */
    const rows = capacityTable(records).get('json') ?? []
    expect(rows.map((row) => row.sut)).toEqual(['fastify', 'express'])
    const [fastify, express] = rows.map(capacityCells)
    expect(fastify.slice(1, 4)).toEqual(['3,408 (median)', '< 100–15,719 (75 %)', 'not ranked (1 of 3 launches held nothing)'])
    expect(fastify[7]).toBe('at 16,000 req/s: p99<=20ms not held: 40 ms; held nothing: at 100 req/s: not held on 3 attempts; the last: ' +
      'p99<=20ms not held: 16 ms')
    // A SUT whose every launch held a step keeps its geometric mean and t interval.
    expect(express[1]).toBe('1,006')
    expect(express[2]).toMatch(/^[\d,]+–[\d,]+$/)
  })
})

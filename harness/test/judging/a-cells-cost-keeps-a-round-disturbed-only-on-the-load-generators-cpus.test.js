// @ts-check
// A round disturbed only on the load generator's cpus answered fewer requests, but each cost the SUT what it costs in a clean round: the
// cell's req/s leaves it out where it has clean rounds, its cost keeps it. A round disturbed on the SUT's own cpus is left out of both.
import { describe, expect, it } from 'vitest'
import { sutCpusDisturbed } from '../../src/judging/disturbance.js'
import { aggregateRuns } from '../../src/records/aggregate-runs.js'
import { createLatencyHistogram, encodeHistogram, recordLatencyMs } from '../../src/load/latency-histogram.js'

const histogram = createLatencyHistogram()
recordLatencyMs(histogram, 2)
const LATENCY = encodeHistogram(histogram)
const THRESHOLD_PCT = 10

/**
 * What other programs and the hypervisor took of each role's cpus in a phase.
 * @param {Record<string, { othersPct: number, stealPct: number }>} taken
 */
const report = (taken) => ({
  intervalMs: 500,
  durationSec: 1,
  roles: Object.fromEntries(Object.entries(taken).map(([role, share], at) =>
    [role, { cpus: [at], ownPct: 90, dynoPct: 0, irqPct: 0, unnamedPct: 0, ...share }])),
  top: [],
  samples: []
})

/** @param {boolean} disturbed */
const verdict = (disturbed) => ({ thresholdPct: THRESHOLD_PCT, disturbed, worstSharePct: disturbed ? 40 : 1, detail: null })

describe('whether a disturbed phase was disturbed on the SUT\'s own cpus', () => {
  it('says so where the SUT\'s cpus, or every cpu of an unpinned run, lost more than the threshold', () => {
    expect(sutCpusDisturbed(verdict(true), report({ sut: { othersPct: 0, stealPct: 30 }, generator: { othersPct: 0, stealPct: 30 } })))
      .toBe(true)
    expect(sutCpusDisturbed(verdict(true), report({ sut: { othersPct: 8, stealPct: 4 }, generator: { othersPct: 0, stealPct: 0 } })))
      .toBe(true)
    expect(sutCpusDisturbed(verdict(true), report({ machine: { othersPct: 25, stealPct: 0 } }))).toBe(true)
  })

  it('does not where only the generator\'s cpus did, where the phase was not disturbed, or where nothing was read', () => {
    expect(sutCpusDisturbed(verdict(true), report({ sut: { othersPct: 2, stealPct: 8 }, generator: { othersPct: 0, stealPct: 45 } })))
      .toBe(false)
    expect(sutCpusDisturbed(verdict(false), report({ sut: { othersPct: 0, stealPct: 5 }, generator: { othersPct: 0, stealPct: 5 } })))
      .toBe(false)
    expect(sutCpusDisturbed(null, null)).toBe(false)
    // Disturbed, but which cpus lost it is not known (a result of an earlier version): counted as disturbed on the SUT's.
    expect(sutCpusDisturbed(verdict(true), null)).toBe(true)
  })
})

/**
 * A round of one cell, as aggregateRuns reads it.
 * @param {number} round @param {number} requestsPerSec @param {number} cpuUsPerRequest
 * @param {Record<string, { othersPct: number, stealPct: number }>} taken
 */
function record (round, requestsPerSec, cpuUsPerRequest, taken) {
  const phase = report(taken)
  const disturbed = Object.values(taken).some((share) => share.othersPct + share.stealPct > THRESHOLD_PCT)
  return /** @type {import('../../src/records/result-record.js').ResultRecord} */ (/** @type {unknown} */ ({
    status: 'ok',
    sut: { label: 'a' },
    scenario: { name: 'json' },
    load: { connections: 100 },
    repeat: { index: round, of: 3 },
    interference: { ...verdict(disturbed), earlierAttempts: [] },
    summary: {
      requestsPerSec: { mean: requestsPerSec },
      latencyHistogramUs: LATENCY,
      interference: phase,
      cpuCost: { cpuUsPerRequest, cpuSource: 'proc', sutCpuSharePct: 99, cpuBound: true, speedProbe: null }
    }
  }))
}

it('makes a cell\'s cost of its rounds whose SUT\'s cpus were clean, and its req/s of its rounds that were clean everywhere', () => {
  const clean = { sut: { othersPct: 0, stealPct: 1 }, generator: { othersPct: 0, stealPct: 1 } }
  const [cell] = aggregateRuns([
    record(1, 20_000, 40, clean),
    // The generator lost half its cpu: the SUT answered half as many requests, each at its cost.
    record(2, 10_000, 42, { sut: { othersPct: 0, stealPct: 3 }, generator: { othersPct: 0, stealPct: 50 } }),
    // The SUT's own cpu was stolen from: its cost rose too.
    record(3, 12_000, 70, { sut: { othersPct: 0, stealPct: 40 }, generator: { othersPct: 0, stealPct: 2 } })
  ], { seed: 1, rankBy: 'cost' })
  expect(cell).toMatchObject({ runs: 1, disturbedLeftOut: 2, requestsPerSecRuns: [20_000] })
  expect(cell.cpuCost?.cpuUsPerRequestRuns).toEqual([40, 42])
  expect(cell.cpuCost?.center).toBeCloseTo(Math.sqrt(40 * 42), 3)
})

it('keeps every round of a cell whose SUT\'s cpus were disturbed in each, as req/s keeps a cell\'s rounds that were all disturbed', () => {
  const stolen = { sut: { othersPct: 0, stealPct: 30 }, generator: { othersPct: 0, stealPct: 0 } }
  const [cell] = aggregateRuns([record(1, 12_000, 60, stolen), record(2, 11_000, 66, stolen)], { seed: 1, rankBy: 'cost' })
  expect(cell).toMatchObject({ runs: 2, disturbedRuns: 2 })
  expect(cell.cpuCost?.cpuUsPerRequestRuns).toEqual([60, 66])
})

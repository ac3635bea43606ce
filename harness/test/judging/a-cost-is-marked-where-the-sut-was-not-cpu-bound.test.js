// @ts-check
// A cell's cpu cost per request is marked where the SUT was not cpu-bound: its share of the cpus it was given under the threshold in a
// round, or a scenario that says its work waits on I/O (a property of the scenario, never its name). On a committed run's real
// results, the aggregate's cost is the geometric mean of its rounds' and carries the mark.
import { join } from 'node:path'
import { SCENARIOS } from '@dyno/scenarios'
import { expect, it } from 'vitest'
import { notCpuBoundReason } from '../../src/judging/cpu-bound.js'
import { SUT_CPU_BOUND_SHARE } from '../../src/platform/resources/resource-defaults.js'
import { aggregateRuns } from '../../src/records/aggregate-runs.js'
import { readRun } from '../../src/records/read-run.js'

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'overview-run', 'quick-4-scenarios-disturbed')
const threshold = SUT_CPU_BOUND_SHARE * 100

it('marks a share under the threshold in any round, an unknown share, and a scenario that waits on I/O', () => {
  expect(notCpuBoundReason({ sutCpuSharePcts: [threshold, 99], waitsOnIo: false })).toBeNull()
  expect(notCpuBoundReason({ sutCpuSharePcts: [99, threshold - 1], waitsOnIo: false })).toMatch(/used \d+% of its cpus/)
  expect(notCpuBoundReason({ sutCpuSharePcts: [null], waitsOnIo: false })).toMatch(/not known/)
  expect(notCpuBoundReason({ sutCpuSharePcts: [99, 99], waitsOnIo: true })).toMatch(/waits on I\/O/)
})

it('says which scenarios wait on I/O in the scenarios themselves: every one that needs a data service, and only those', () => {
  for (const scenario of SCENARIOS) expect(scenario.waitsOnIo, scenario.name).toBe((scenario.services ?? []).length > 0)
})

it('gives a cell the geometric mean of its rounds\' costs, their source and mean share, the mark of a round under the threshold', () => {
  const run = readRun(FIXTURE)
  const aggregates = aggregateRuns(run.records, { seed: run.index.seed })
  const withCost = aggregates.filter((aggregate) => aggregate.cpuCost)
  expect(withCost.length).toBeGreaterThan(0)
  for (const aggregate of withCost) {
    const cost = /** @type {NonNullable<typeof aggregate.cpuCost>} */ (aggregate.cpuCost)
    const records = run.records.filter((record) => record.sut.label === aggregate.sut && record.scenario.name === aggregate.scenario &&
      record.status === 'ok')
    const rounds = records.map((record) => record.summary?.cpuCost?.cpuUsPerRequest)
    expect(cost.cpuUsPerRequestRuns.toSorted()).toEqual(rounds.toSorted())
    const logMean = cost.cpuUsPerRequestRuns.reduce((sum, value) => sum + Math.log(value), 0) / cost.cpuUsPerRequestRuns.length
    expect(cost.center).toBeCloseTo(Math.exp(logMean), 2)
    expect(cost.cpuSource).toBe('proc')
    const shares = records.map((record) => Number(record.summary?.cpuCost?.sutCpuSharePct))
    expect(cost.notCpuBound !== null).toBe(shares.some((share) => share < threshold))
    // Each round's cost times its responses is the cpu the same record holds.
    for (const record of records) {
      const summary = /** @type {NonNullable<typeof record.summary>} */ (record.summary)
      const cpuSec = Number(summary.resources?.targets.sut.cpuSec)
      expect(Number(summary.cpuCost?.cpuUsPerRequest) * summary.requests / 1e6).toBeCloseTo(cpuSec, 3)
    }
  }
  // What the committed aggregates hold is what aggregating the committed results gives.
  expect(run.aggregates.map((aggregate) => aggregate.cpuCost)).toEqual(run.aggregates.map((aggregate) =>
    aggregates.find((entry) => entry.sut === aggregate.sut && entry.scenario === aggregate.scenario)?.cpuCost))
})

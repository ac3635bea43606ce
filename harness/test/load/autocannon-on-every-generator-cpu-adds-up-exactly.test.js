// @ts-check
// With more than one generator cpu, the autocannon engine runs one process per cpu, each with its share of
// the connections, and adds their counts up exactly: one µs sample per response in the merged histogram, the
// windows' responses summing to the phase's, statuses and checks summed, and an open model's rate shared.
import { join } from 'node:path'
import { availableParallelism } from 'node:os'
import { afterAll, expect, it } from 'vitest'
import { decodeHistogram } from '../../src/load/latency-histogram.js'
import { scenarioLoadPlan } from '../../src/load/load-plan.js'
import { startAutocannonLoad, workerPlans } from '../../src/load/engines/autocannon/autocannon-engine.js'
import { PACKAGES_DIR } from '../../src/platform/paths.js'
import { loadSut } from '../../src/subjects/suts/discover-suts.js'
import { fixtureSut } from '../support/fixture-suts.js'
import { trackRuns } from '../support/leftover-processes.js'
import { scenarioNamed } from '../support/run-fixture.js'
import { withSut } from '../support/engine-under-test.js'

const runs = trackRuns()
/** Two generator processes; on a machine of one cpu both share it, which the merge does not care about. */
const CPUS = availableParallelism() >= 2 ? [0, 1] : [0, 0]

it('shares the connections and an open model\'s rate among the processes as evenly as they go', () => {
  const plan = scenarioLoadPlan({
    port: 1, scenario: scenarioNamed('json'), connections: 10, pipelining: 1, warmupSec: 0, durationSec: 1, windowMs: 250, ratePerSec: 900
  })
  expect(workerPlans(plan, 3).map((entry) => [entry.connections, entry.ratePerSec])).toEqual([[4, 300], [3, 300], [3, 300]])
  expect(workerPlans({ ...plan, connections: 2 }, 8)).toHaveLength(2) // never a process without a connection
})

it('runs one autocannon process per generator cpu and merges their phases exactly', async () => {
  const plan = scenarioLoadPlan({
    port: 0,
    scenario: scenarioNamed('json'),
    connections: 10,
    pipelining: 1,
    warmupSec: 0.5,
    durationSec: 1,
    windowMs: 250
  })
  /** @type {number[][]} */
  const seenPids = []
  const { phases } = await withSut(runs, loadSut(join(PACKAGES_DIR, 'node-http')), (port, env) => {
    const load = startAutocannonLoad({ ...plan, url: plan.url.replace(':0/', `:${port}/`) }, { env, cpus: CPUS, threads: CPUS.length })
    seenPids.push(load.pids)
    return load.done
  })
  expect(new Set(seenPids[0]).size).toBe(2)
  for (const summary of [phases.warmup, phases.measure]) {
    if (!summary) throw new Error('a phase is missing')
    expect(summary.statusCounts).toEqual({ 200: summary.requests })
    expect(summary).toMatchObject({ errors: 0, mismatches: 0, unexpectedStatus: 0 })
    expect(decodeHistogram(summary.latencyHistogramUs).totalCount).toBe(summary.requests)
    const windows = /** @type {import('../../src/load/timeseries.js').Window[]} */ (summary.timeseries)
    expect(windows.reduce((sum, window) => sum + window.requests, 0)).toBe(summary.requests)
  }
  expect(phases.measure?.durationSec).toBeGreaterThan(0.95)
}, 30_000)

it('adds up what each process found wrong under load', async () => {
  const plan = scenarioLoadPlan({
    port: 0,
    scenario: scenarioNamed('json'),
    connections: 10,
    pipelining: 1,
    warmupSec: 0,
    durationSec: 1,
    windowMs: 250
  })
  const { phases } = await withSut(runs, fixtureSut('wrong-under-load'), (port, env) =>
    startAutocannonLoad({ ...plan, url: plan.url.replace(':0/', `:${port}/`) }, { env, cpus: CPUS, threads: CPUS.length }).done)
  const summary = /** @type {import('../../src/load/load-plan.js').PhaseSummary} */ (phases.measure)
  expect(summary.unexpectedStatus).toBe(summary.statusCounts['503'])
  expect(summary.statusCounts['200'] + summary.statusCounts['503']).toBe(summary.requests)
  expect(summary.mismatches).toBeGreaterThan(summary.requests / 6)
}, 30_000)

afterAll(() => runs.expectNoneLeft(expect))

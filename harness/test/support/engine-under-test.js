// @ts-check
// What the engine tests share: a SUT started for one piece of work and always stopped, and the load plan of
// a scenario against it, as run-one.js builds it (10 connections, 1 s, no warm-up unless overridden).
import { scenarioLoadPlan } from '../../src/load/load-plan.js'
import { runEnv } from '../../src/platform/env/run-env.js'
import { startSut } from '../../src/subjects/sut-process/start-sut.js'
import { scenarioNamed } from './run-fixture.js'

/**
 * Starts a SUT marked with a fresh run id (registered with `runs`), runs `work` against it, and always stops it.
 * @template T
 * @param {{ add: (runId: string) => string }} runs
 * @param {import('../../src/subjects/suts/discover-suts.js').SutDescriptor} sut
 * @param {(port: number, env: Record<string, string>) => Promise<T>} work
 */
export async function withSut (runs, sut, work) {
  const env = runEnv(runs.add(`engine-test-${Math.random().toString(16).slice(2, 8)}`))
  const running = await startSut(sut, { readyTimeoutSec: 10, stopGraceSec: 5, env })
  try {
    return await work(running.port, env)
  } finally {
    await running.stop(5000)
  }
}

/**
 * @param {number} port @param {string} scenarioName
 * @param {Partial<import('../../src/load/load-plan.js').LoadPlan>} [overrides]
 * @returns {import('../../src/load/load-plan.js').LoadPlan}
 */
export function planFor (port, scenarioName, overrides = {}) {
  return {
    ...scenarioLoadPlan({
      port,
      scenario: scenarioNamed(scenarioName),
      connections: 10,
      pipelining: 1,
      warmupSec: 0,
      durationSec: 1,
      windowMs: 250
    }),
    ...overrides
  }
}

/**
 * What an engine must have counted against the wrong-under-load fixture: one answer in ten is a wrong body, one in
 * ten a 503 with an empty body (a wrong body too).
 * @param {import('../../src/load/load-plan.js').PhaseSummary} summary
 * @param {import('vitest').ExpectStatic} expect
 */
export function expectWrongUnderLoadCounted (summary, expect) {
  expect(summary.unexpectedStatus).toBe(summary.statusCounts['503'])
  expect(summary.unexpectedStatus).toBeGreaterThan(summary.requests / 12)
  expect(summary.mismatches).toBeGreaterThan(summary.requests / 6)
  expect(summary.mismatches).toBeLessThan(summary.requests / 4)
  expect(summary.non2xx).toBe(summary.unexpectedStatus)
  expect(summary.statusCounts['200'] + summary.statusCounts['503']).toBe(summary.requests)
}

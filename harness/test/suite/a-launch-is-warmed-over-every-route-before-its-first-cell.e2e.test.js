// @ts-check
// A fresh launch of a SUT takes `--launch-warmup` of load on the route of every cell it is to serve, in their order, before the first
// is measured; every record of the launch says how it was warmed, and the first where the time went. A launch that exits while it is
// warmed is started again, unwarmed, for its cell, which then finds out what the route does; the route is not warmed again in the run.
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { PACKAGES_DIR } from '../../src/platform/paths.js'
import { loadSut } from '../../src/subjects/suts/discover-suts.js'
import { fixtureSut } from '../support/fixture-suts.js'
import { trackRuns } from '../support/leftover-processes.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runInTempDir } from '../support/run-fixture.js'

const runs = trackRuns()

it('warms a launch over the routes of all its cells before the first is measured', async () => {
  const { written } = await runInTempDir({
    runs,
    suts: [loadSut(join(PACKAGES_DIR, 'node-http'))],
    scenarios: ['plaintext', 'json', 'params'],
    load: { durationSec: 0.5, launchWarmupSec: 0.3 }
  })
  for (const record of written) expect(schemaErrors('result', record)).toEqual([])
  expect(written.map((record) => record.status)).toEqual(['ok', 'ok', 'ok'])
  expect(new Set(written.map((record) => record.sutProcess.pid)).size).toBe(1)
  const [first] = written
  const warmup = first.sutProcess.launchWarmup
  expect(warmup).toMatchObject({ durationSecEach: 0.3, problem: null })
  expect(warmup?.routes.map((route) => route.scenario)).toEqual(['plaintext', 'json', 'params'])
  for (const route of warmup?.routes ?? []) {
    expect(route.requests).toBeGreaterThan(100)
    expect(route.wrong).toBe(0)
  }
  // Every cell of the launch says how it was warmed; the first carries the time it took.
  for (const record of written) expect(record.sutProcess.launchWarmup).toEqual(warmup)
  expect(first.stagesMs.launchWarmup).toBeGreaterThanOrEqual(900)
  expect(written.map((record) => typeof record.stagesMs.launchWarmup)).toEqual(['number', 'undefined', 'undefined'])
  expect(written.map((record) => record.load.launchWarmupSec)).toEqual([0.3, 0.3, 0.3])
}, 60_000)

it('starts a launch that exited while it was warmed again, unwarmed, and warms that route no more', async () => {
  const { written } = await runInTempDir({
    runs,
    suts: [fixtureSut('crash-during-load')],
    scenarios: ['json'],
    levels: [10, 20],
    load: { durationSec: 3, launchWarmupSec: 2 }
  })
  for (const record of written) expect(schemaErrors('result', record)).toEqual([])
  const [first, second] = written
  // The fixture exits after 500 requests: the warm-up's, then the cell's own in the launch started again.
  expect(first.sutProcess.launchWarmup?.problem).toMatch(/^the SUT exited while json was warmed \(exit code 3\): started again, unwarmed/)
  expect(first.sutProcess.launchWarmup?.routes).toEqual([{ scenario: 'json', requests: expect.any(Number), wrong: expect.any(Number) }])
  expect(first).toMatchObject({ status: 'failed', errorCode: 'DYNO_ERR_SUT_EXITED', sutProcess: { exit: { code: 3, signal: null } } })
  expect(second.sutProcess.launchWarmup).toBeUndefined()
  expect(second.status).toBe('failed')
}, 60_000)

afterAll(() => runs.expectNoneLeft(expect))

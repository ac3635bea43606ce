// @ts-check
import { afterAll, expect, it } from 'vitest'
import { interleavedFixtureRuns } from '../support/interleaved-fixture-runs.js'
import { trackRuns } from '../support/leftover-processes.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runCli } from '../support/run-cli.js'

const runs = trackRuns()
/**
 * The injected slowdown: this much more CPU work per request in the candidate (req/s about 37% lower).
 * Not the 10% of the slowdown proof (harness/bench/compare-detects-a-slowdown.js, figures in the issue
 * notes): this test runs on the CI machine right after the rest of the suite, where one round can come
 * out at a third of the others (seen: 645 against ~1,800 req/s), and must not fail because of it.
 * The A/A half of the proof is not asserted here: at a 5% significance level one A/A comparison in
 * twenty may be called significant by design, which would make the test fail by chance; the proof
 * script measures it over many trials instead.
 */
const EXTRA_WORK_PERCENT = '60'

it(`calls ${EXTRA_WORK_PERCENT}% more work per request a significant regression and fails --fail-on regression`, async () => {
  const dirs = await interleavedFixtureRuns({
    sides: [{ name: 'baseline', extraWorkPercent: null }, { name: 'slower', extraWorkPercent: EXTRA_WORK_PERCENT }],
    rounds: 8,
    durationSec: 1.5,
    warmupSec: 0.5,
    runs
  })

  const slowdown = await runCli(['compare', dirs.baseline, dirs.slower, '--format', 'json', '--fail-on', 'regression'])
  const comparison = JSON.parse(slowdown.stdout)
  expect(schemaErrors('compare', comparison)).toEqual([])
  const [row] = comparison.rows
  expect(row, JSON.stringify(row.requestsPerSec)).toMatchObject({
    sut: 'fixture-cpu-work', status: 'compared', verdict: 'regressed', requestsPerSec: { significant: true }
  })
  expect(row.requestsPerSec.changePercent).toBeLessThanOrEqual(-5)
  expect(row.requestsPerSec.ci95Percent[1]).toBeLessThan(0)
  expect(slowdown.code).toBe(1)
  expect(slowdown.stderr).toContain('fixture-cpu-work × json (10 connections) regressed')

  // The other direction is an improvement, with the same figures mirrored.
  const faster = await runCli(['compare', dirs.slower, dirs.baseline, '--format', 'json', '--fail-on', 'regression'])
  expect(JSON.parse(faster.stdout).rows[0].verdict).toBe('improved')
  expect(faster.code).toBe(0)
}, 240_000)

afterAll(() => runs.expectNoneLeft(expect))

// @ts-check
import { afterAll, expect, it } from 'vitest'
import { interleavedFixtureRuns } from '../support/interleaved-fixture-runs.js'
import { trackRuns } from '../support/leftover-processes.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runCli } from '../support/run-cli.js'

const runs = trackRuns()
/**
 * The injected slowdown: ten times the CPU work per request in the candidate (req/s about ten times lower: ln 2.3), so that the
 * verdict is ten times the noise it is judged in. One 1-s round of a warm SUT here spreads by sd 0.47–0.55 of ln req/s, so the mean
 * difference of 8 interleaved pairs spreads by at most 0.5 × √2 / √8 = 0.25 (less, since rounds seconds apart move together): 60 %
 * more work (ln 0.47) was two of those, and a bad minute flipped it. The 10 % of the slowdown proof is measured over many trials by
 * harness/bench/compare-detects-a-slowdown.js, never in a test. The A/A half of the proof is not asserted here either: at a 5 %
 * significance level one A/A comparison in twenty is called significant by design.
 */
const EXTRA_WORK_PERCENT = '900'

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

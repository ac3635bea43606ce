// @ts-check
// `dyno explain` reads instruction counts that kept their functions: runs measured by wall clock are refused with the side, the path
// and what explain reads, exit code 2, and nothing is written.
import { expect, it } from 'vitest'
import { FOUR_REPEATS, runWithFigures } from '../support/compare-inputs.js'
import { runCli } from '../support/run-cli.js'

it('refuses runs measured by wall clock, naming the side and the path', async () => {
  const run = runWithFigures(FOUR_REPEATS, { requestsPerSec: [10_000, 10_100, 9_900, 10_050], p99Ms: [2.0, 2.1, 1.9, 2.05] })
  const refused = await runCli(['explain', run, run])
  expect(refused.code).toBe(2)
  expect(refused.stdout).toBe('')
  expect(refused.stderr).toContain(`DYNO_ERR_EXPLAIN_INPUT: the baseline ${run} holds no instruction count that ended ok`)
  expect(refused.stderr).toMatch(/dyno run --measure instructions/)
})

it('refuses a --top outside 1 to 250, naming the value', async () => {
  const run = runWithFigures(FOUR_REPEATS, { requestsPerSec: [10_000, 10_100, 9_900, 10_050], p99Ms: [2.0, 2.1, 1.9, 2.05] })
  const refused = await runCli(['explain', run, run, '--top', '0'])
  expect(refused.code).toBe(2)
  expect(refused.stderr).toMatch(/--top.*\b0\b/)
})

// @ts-check
// The honesty line: a run whose spread between rounds cannot separate frameworks 15 % apart says so, with the rounds that would;
// a run that can says nothing.
import { expect, it } from 'vitest'
import { RANK_FDR } from '../../src/judging/stats/rank-groups.js'
import { studentTQuantile } from '../../src/judging/stats/student-t.js'
import { noiseBudgetLine } from '../../src/measures/wall-clock/report/noise-budget.js'

/** A run of two rounds a cell, ten minutes long, whose json column spread `sdLog` and plaintext half of it. @param {number} sdLog */
const runWith = (sdLog) => /** @type {any} */ ({
  dir: '/nowhere',
  index: { startedAt: '2026-11-27T20:00:00.000Z', finishedAt: '2026-11-27T20:10:00.000Z' },
  records: [{ repeat: { index: 1, of: 2 } }, { repeat: { index: 2, of: 2 } }],
  aggregates: [
    { scenario: 'plaintext', noise: { pooledSdLog: sdLog / 2, df: 24, nu0: 4 } },
    { scenario: 'json', noise: { pooledSdLog: sdLog, df: 24, nu0: 4 } }
  ]
})
/** The smallest ln-difference two cells of `rounds` rounds separate at the groups' level. @param {number} sdLog @param {number} rounds */
const separable = (sdLog, rounds) => studentTQuantile(1 - RANK_FDR / 2, 2 * (4 + rounds - 1)) * sdLog * Math.sqrt(2 / rounds)

it('says nothing when two rounds already separate 15 %', () => {
  expect(noiseBudgetLine(runWith(0.02))).toBeNull()
})

it('names the noisiest scenario, what its rounds separate, and the fewest rounds that would separate 15 %, with the time they take', () => {
  const line = noiseBudgetLine(runWith(0.08))
  const needed = Number(/--repeats (\d+)/.exec(line ?? '')?.[1])
  expect(separable(0.08, needed)).toBeLessThanOrEqual(Math.log(1.15))
  expect(separable(0.08, needed - 1)).toBeGreaterThan(Math.log(1.15))
  const separates = Math.round((Math.exp(separable(0.08, 2)) - 1) * 100)
  expect(line).toContain(`noise: rounds spread ±${((Math.exp(0.08) - 1) * 100).toFixed(1)} % (json), so 2 rounds tell apart only ` +
    `≥ ${separates} %; 15 % needs \`--repeats ${needed}\` (~${Math.ceil(10 * needed / 2)} min)`)
})

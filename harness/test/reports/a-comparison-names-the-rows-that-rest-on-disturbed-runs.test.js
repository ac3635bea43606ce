// @ts-check
// A comparison whose candidate has a run other processes disturbed says so on that row, names what disturbed it, and counts the
// row in its summary, in every format a reader sees; a comparison of clean runs says nothing of the kind.
import { expect, it } from 'vitest'
import { FOUR_REPEATS, runWithFigures } from '../support/compare-inputs.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runCli } from '../support/run-cli.js'

const figures = { requestsPerSec: [10_000, 10_100, 9_900, 10_050], p99Ms: [2.0, 2.1, 1.9, 2.05] }
const DETAIL = 'cpu 0 (the SUT\'s): 48.2 % taken by other processes (pid 4242 `node -e while(true);` 48 %)'

/** @param {number} disturbedRepeat the repeat marked disturbed (0: none) */
const side = (disturbedRepeat) => runWithFigures(FOUR_REPEATS, {
  ...figures,
  edit: (record, repeat) => {
    record.interference = {
      thresholdPct: 10,
      disturbed: repeat === disturbedRepeat,
      worstSharePct: repeat === disturbedRepeat ? 48.2 : 1.5,
      detail: repeat === disturbedRepeat ? DETAIL : null,
      earlierAttempts: repeat === disturbedRepeat ? [{ requestsPerSec: 5100, detail: DETAIL }] : []
    }
  }
})

it('names the rows that rest on a disturbed run, with what disturbed it, in json, markdown and the table', async () => {
  const baseline = side(0)
  const candidate = side(3)
  const json = await runCli(['compare', baseline, candidate, '--format', 'json'])
  const document = JSON.parse(json.stdout)
  expect(schemaErrors('compare', document)).toEqual([])
  expect(document.summary.disturbed).toBe(1)
  expect(document.rows[0].notes).toContainEqual(`1 candidate run was disturbed: ${DETAIL}`)
  const markdown = await runCli(['compare', baseline, candidate, '--format', 'md'])
  expect(markdown.stdout).toContain('**1 row rests on disturbed runs** (see the notes)')
  expect(markdown.stdout).toContain('pid 4242')
  const table = await runCli(['compare', baseline, candidate])
  expect(table.stdout).toContain('1 resting on disturbed runs')
  expect(table.stdout).toContain(`node-http × json (10 connections): 1 candidate run was disturbed: ${DETAIL}`)
})

it('says nothing of disturbance when every run was clean', async () => {
  const json = await runCli(['compare', side(0), side(0), '--format', 'json'])
  const document = JSON.parse(json.stdout)
  expect(document.summary.disturbed).toBe(0)
  expect(document.rows[0].notes.filter((/** @type {string} */ note) => note.includes('disturbed'))).toEqual([])
  const table = await runCli(['compare', side(0), side(0)])
  expect(table.stdout).not.toContain('disturbed')
})

// @ts-check
// A SUT's consecutive cells share one process: started for the first, stopped after the last, started again after a cell that
// did not end ok. `--fresh-sut` gives every cell its own. Each record says which process served it and how many cells it had
// served before, and the exit is recorded with the cell it ended in.
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { PACKAGES_DIR } from '../../src/platform/paths.js'
import { loadSut } from '../../src/subjects/suts/discover-suts.js'
import { fixtureSut } from '../support/fixture-suts.js'
import { trackRuns } from '../support/leftover-processes.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runInTempDir } from '../support/run-fixture.js'

const runs = trackRuns()
const nodeHttp = () => loadSut(join(PACKAGES_DIR, 'node-http'))

it('serves a SUT\'s scenarios from one process, stopped after the last', async () => {
  const { written } = await runInTempDir({
    runs,
    suts: [nodeHttp()],
    scenarios: ['plaintext', 'json', 'params'],
    load: { durationSec: 0.5 }
  })
  for (const record of written) expect(schemaErrors('result', record)).toEqual([])
  expect(written.map((record) => record.status)).toEqual(['ok', 'ok', 'ok'])
  expect(new Set(written.map((record) => record.sutProcess.pid)).size).toBe(1)
  expect(written.map((record) => record.sutProcess.servedBefore)).toEqual([0, 1, 2])
  expect(written.map((record) => record.sutProcess.exit)).toEqual([null, null, { code: 0, signal: null }])
  expect(written.map((record) => typeof record.stagesMs.start)).toEqual(['number', 'undefined', 'undefined'])
  expect(written.map((record) => typeof record.stagesMs.stop)).toEqual(['undefined', 'undefined', 'number'])
  // Each cell has its own verification and its own phases.
  for (const record of written) {
    expect(record).toMatchObject({ verification: { performed: true, passed: true }, summary: { stoppedEarly: false } })
  }
}, 60_000)

it('gives every cell its own process with --fresh-sut', async () => {
  const { written } = await runInTempDir({
    runs,
    suts: [nodeHttp()],
    scenarios: ['plaintext', 'json'],
    load: { durationSec: 0.5 },
    freshSut: true
  })
  expect(new Set(written.map((record) => record.sutProcess.pid)).size).toBe(2)
  expect(written.map((record) => record.sutProcess.servedBefore)).toEqual([0, 0])
  for (const record of written) expect(record.sutProcess.exit).toEqual({ code: 0, signal: null })
}, 60_000)

it('starts the SUT again after a cell that did not end ok', async () => {
  const { written } = await runInTempDir({
    runs,
    suts: [fixtureSut('crash-during-load')],
    scenarios: ['json'],
    levels: [10, 20],
    load: { durationSec: 3 }
  })
  expect(written.map((record) => record.status)).toEqual(['failed', 'failed'])
  const [first, second] = written
  expect(first.sutProcess.exit).toEqual({ code: 3, signal: null })
  expect(second.sutProcess.pid).not.toBe(first.sutProcess.pid)
  expect(second.sutProcess.servedBefore).toBe(0)
}, 60_000)

afterAll(() => runs.expectNoneLeft(expect))

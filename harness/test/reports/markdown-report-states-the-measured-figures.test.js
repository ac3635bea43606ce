// @ts-check
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { writeReports } from '../../src/reports/report/write-reports.js'
import { PACKAGES_DIR } from '../../src/platform/paths.js'
import { loadSut } from '../../src/subjects/suts/discover-suts.js'
import { ONE_ROUND_NOTE } from '../../src/judging/stats/rank-groups.js'
import { formatInteger, formatMs } from '../../src/platform/text/format.js'
import { fixtureSut } from '../support/fixture-suts.js'
import { trackRuns } from '../support/leftover-processes.js'
import { runInTempDir } from '../support/run-fixture.js'

const runs = trackRuns()

it('writes report.md with the run\'s own figures, and lists the runs that are not ok with their reasons', async () => {
  const { runDir, aggregates, written } = await runInTempDir({
    runs, suts: [loadSut(`${PACKAGES_DIR}node-http`), fixtureSut('wrong-body')], scenarios: ['json'], load: { durationSec: 0.5 }
  })
  const [path] = writeReports([runDir])
  expect(path).toBe(join(runDir, 'report.md'))
  const report = readFileSync(path, 'utf8')

  const nodeHttp = aggregates.find((entry) => entry.sut === 'node-http')
  if (!nodeHttp?.latencyMs) throw new Error('node-http was not measured')
  // The scenario's table (the overview above it has a row of node-http too).
  const row = report.split('\n').find((line) => line.startsWith('| 1 | node-http |'))
  const figures = `| 1 | node-http | ${process.versions.node} | ${formatInteger(nodeHttp.requestsPerSec.center)} | 1.00× | ` +
    `${formatMs(nodeHttp.latencyMs.p50)} | ${formatMs(nodeHttp.latencyMs.p99)} | 0 | `
  expect(row?.startsWith(figures), row).toBe(true)
  // Its last cell: each note its record calls for and no other, nothing when it calls for none. A busy machine can make a cell
  // disturbed or fail Little's law, a fast one leave the generator short of the SUT: the record says which, and the report with it.
  const record = written.find((candidate) => candidate.sut.name === 'node-http')
  const said = row?.slice(figures.length) ?? ''
  /** @type {[boolean, RegExp][]} */
  const notes = [
    [record?.summary?.generatorBound === true, /\*\*(generator-bound|‡ limit of this machine)\*\*: /],
    [record?.interference?.disturbed === true, /\*\*disturbed\*\*: /],
    [record?.consistency?.passed === false, /\*\*inconsistent\*\*: /]
  ]
  for (const [called, note] of notes) expect(note.test(said), `${note} in ${said}`).toBe(called)
  if (notes.every(([called]) => !called)) expect(said).toBe(' |')
  // One round: the rank is the plain order, and the table says that it is no rank group.
  expect(report).toContain(`- ${ONE_ROUND_NOTE}`)
  const invalid = report.split('\n').find((line) => line.startsWith('| - | fixture-wrong-body |'))
  expect(invalid).toMatch(/\| - \| - \| - \| - \| 0 \| invalid: DYNO_ERR_RESPONSE_MISMATCH: .*Hello, Dyno!/)
  // Sorted by req/s: the measured SUT first, the invalid one last.
  expect(report.indexOf('| node-http |')).toBeLessThan(report.indexOf('| fixture-wrong-body |'))
  expect(report).toContain('- OS: Linux')
  expect(report).toMatch(/- load: autocannon \d+\.\d+\.\d+/)
}, 60_000)

afterAll(() => runs.expectNoneLeft(expect))

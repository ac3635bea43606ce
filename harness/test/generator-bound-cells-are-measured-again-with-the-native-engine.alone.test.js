// @ts-check
// autocannon on one generator cpu cannot keep up with uwebsockets: the run notices (generator-bound), measures
// the cell again with the native engine, keeps autocannon's figure beside it, and every table says which
// engine measured what. A slow SUT keeps its autocannon figure. It runs alone: with another test file loading
// the same cpus, neither the generator nor the SUT gets a whole cpu, and CPU shares can no longer tell which
// one set the pace.
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { PACKAGES_DIR } from '../src/paths.js'
import { markdownReport } from '../src/report/markdown-report.js'
import { readRun } from '../src/report/read-run.js'
import { referenceTable } from '../src/report/reference-table.js'
import { loadSut } from '../src/suts/discover-suts.js'
import { formatSummaryTable } from '../src/ui/summary-table.js'
import { fixtureSut } from './support/fixture-suts.js'
import { trackRuns } from './support/leftover-processes.js'
import { missing, skipNote } from './support/needs.js'
import { schemaErrors } from './support/result-schemas.js'
import { runInTempDir } from './support/run-fixture.js'

const runs = trackRuns()
const absent = missing('native', 'two cpus')

describe.skipIf(absent)(`a generator-bound cell${skipNote(absent)}`, () => {
  it('is measured again with the native engine, autocannon\'s figure kept beside and marked in every table', async () => {
    const { written, runDir } = await runInTempDir({
      runs,
      suts: [loadSut(join(PACKAGES_DIR, 'uwebsockets')), fixtureSut('cpu-work')],
      scenarios: ['json'],
      connections: 100,
      load: { durationSec: 2, warmupSec: 1 },
      pin: 'sut=0,gen=1'
    })
    const [fast, slow] = written
    for (const record of written) expect(schemaErrors('result', record)).toEqual([])
    // autocannon, pinned to one cpu, was the bottleneck against uwebsockets...
    expect(fast).toMatchObject({ status: 'ok', load: { engine: 'native' }, generatorBoundMeasurement: { engine: 'autocannon' } })
    expect(fast.generatorBoundMeasurement.generatorCpuPct).toBeGreaterThanOrEqual(75)
    // ...and the native engine, on the same cpu, drove it faster.
    expect(fast.summary.requestsPerSec.mean).toBeGreaterThan(fast.generatorBoundMeasurement.requestsPerSec)
    // A SUT that sets the pace itself keeps autocannon's measurement.
    expect(slow).toMatchObject({ status: 'ok', load: { engine: 'autocannon' } })
    expect(slow.generatorBoundMeasurement).toBeUndefined()

    expect(formatSummaryTable(written)).toMatch(/uwebsockets.*ok \((native; autocannon [\d,]+†|limit of this machine‡)\)/)
    const run = readRun(runDir)
    expect(markdownReport(run)).toContain('measured with the **native** engine: autocannon was generator-bound at')
    expect(referenceTable(run)).toMatch(/\| uwebsockets \|[^|]*\| [\d,]+ⁿ( ‡)? \([\d,]+†\) \|/)
  }, 60_000)

  afterAll(() => runs.expectNoneLeft(expect))
})

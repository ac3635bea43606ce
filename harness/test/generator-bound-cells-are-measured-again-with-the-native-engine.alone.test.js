// @ts-check
// autocannon on one generator cpu cannot keep up with uwebsockets: the run notices (generator-bound), measures
// the cell again with the native engine, keeps autocannon's figure beside it, and every table says which
// engine measured what. A slow SUT keeps its autocannon figure. It runs alone: with another test file loading
// the same cpus, neither the generator nor the SUT gets a whole cpu, and CPU shares can no longer tell which
// one set the pace.
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { findNativeEngine } from '../src/load/native-engine.js'
import { PACKAGES_DIR } from '../src/paths.js'
import { markdownReport } from '../src/report/markdown-report.js'
import { readRun } from '../src/report/read-run.js'
import { referenceTable } from '../src/report/reference-table.js'
import { loadSut } from '../src/suts/discover-suts.js'
import { formatSummaryTable } from '../src/ui/summary-table.js'
import { fixtureSut } from './support/fixture-suts.js'
import { trackRuns } from './support/leftover-processes.js'
import { schemaErrors } from './support/result-schemas.js'
import { runInTempDir } from './support/run-fixture.js'

const runs = trackRuns()
const native = findNativeEngine()
if (!native.ok && process.env.CI === 'true') throw new Error(`the native engine is missing under CI=true: ${native.reason}`)
const reason = !native.ok ? native.reason : availableParallelism() < 2 ? 'needs two cpus to pin the SUT and the generator apart' : null

describe.skipIf(reason !== null)(`a generator-bound cell${reason ? ` (skipped: ${reason})` : ''}`, () => {
  it('is measured again with the native engine, autocannon\'s figure kept beside and marked in every table', async () => {
    const { written, runDir } = await runInTempDir({
      runs,
      suts: [loadSut(join(PACKAGES_DIR, 'uwebsockets')), fixtureSut('cpu-work')],
      scenarios: ['json'],
      load: { connections: 100, durationSec: 2, warmupSec: 1 },
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

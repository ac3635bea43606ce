// @ts-check
// autocannon on one generator cpu cannot keep up with uwebsockets. A run that uses autocannon anyway (`--engine autocannon`)
// notices it (generator-bound), marks the cell in every table, and measures nothing twice: every cell of a run is measured
// by the run's engine. A slow SUT beside it is not marked. It runs alone: with another test file loading the same cpus,
// neither the generator nor the SUT gets a whole cpu, and CPU shares can no longer tell which one set the pace. Whatever else takes
// the generator's cpu (the hypervisor here steals up to half of one for seconds), a share of a cpu the generator did not get cannot
// say it set the pace: the verdict is asserted where the record says its cpu was its own (less than DISTURBED_SHARE_PCT taken), and
// elsewhere the record must carry what took it. It runs both ways in the census (docs/development.md, "What flips").
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { DISTURBED_SHARE_PCT, judgeDisturbance } from '../../src/judging/disturbance.js'
import { PACKAGES_DIR } from '../../src/platform/paths.js'
import { markdownReport } from '../../src/reports/report/markdown-report.js'
import { readRun } from '../../src/records/read-run.js'
import { referenceTable } from '../../src/measures/wall-clock/report/reference-table.js'
import { loadSut } from '../../src/subjects/suts/discover-suts.js'
import { formatSummaryTable } from '../../src/interface/ui/summary-table.js'
import { fixtureSut } from '../support/fixture-suts.js'
import { trackRuns } from '../support/leftover-processes.js'
import { missing, skipNote } from '../support/needs.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runInTempDir } from '../support/run-fixture.js'

const runs = trackRuns()
const absent = missing('two cpus')

describe.skipIf(absent)(`a generator-bound cell${skipNote(absent)}`, () => {
  it('is marked in every table, and measured once, by the run\'s engine', async () => {
    const { written, runDir, index } = await runInTempDir({
      runs,
      suts: [loadSut(join(PACKAGES_DIR, 'uwebsockets')), fixtureSut('cpu-work')],
      scenarios: ['json'],
      connections: 100,
      load: { durationSec: 2, warmupSec: 1, engine: 'autocannon' },
      pin: 'sut=0,gen=1'
    })
    expect(index.results).toHaveLength(2)
    const [fast, slow] = written
    for (const record of written) expect(schemaErrors('result', record)).toEqual([])
    expect(fast).toMatchObject({ status: 'ok', load: { engine: 'autocannon' } })
    expect(fast.generatorBoundMeasurement).toBeUndefined()
    // A SUT that sets the pace itself is not marked, however little of its cpu it got.
    expect(slow).toMatchObject({ status: 'ok', load: { engine: 'autocannon' }, summary: { generatorBound: false } })
    const generator = fast.summary.interference.roles.generator
    const takenPct = generator.othersPct + generator.stealPct
    if (takenPct >= DISTURBED_SHARE_PCT) {
      // The generator's cpu was not its own: the record says so, and by how much; what set the pace is no verdict on such a cell.
      expect(judgeDisturbance(fast.summary.interference)?.disturbed, JSON.stringify(generator)).toBe(true)
      return
    }
    // autocannon, pinned to one cpu it had to itself, was the bottleneck against uwebsockets, and the record says so.
    expect(fast.summary.generatorBound, `${fast.summary.generatorCpuPct} % of a core; ${JSON.stringify(generator)}`).toBe(true)
    expect(fast.summary.generatorCpuPct).toBeGreaterThanOrEqual(75)

    expect(formatSummaryTable(written)).toMatch(/uwebsockets.*ok \(generator-bound!\)/)
    expect(formatSummaryTable(written)).toMatch(/WARNING: 1 run was generator-bound .*uwebsockets × json/)
    const run = readRun(runDir)
    expect(markdownReport(run)).toContain('**generator-bound**: measures the load generator, not the framework')
    // req/s, its mark, then the cpu cost of a request beside it: only the generator-bound cell is marked †.
    expect(referenceTable(run)).toMatch(/\| uwebsockets \|[^|]*\| [\d,]+ † · [\d.,]+ µs \d+%~? \|/)
    expect(referenceTable(run)).toMatch(/\| fixture-cpu-work \|[^|]*\| [\d,]+ · [\d.,]+ µs \d+%~? \|/)
  }, 60_000)

  afterAll(() => runs.expectNoneLeft(expect))
})

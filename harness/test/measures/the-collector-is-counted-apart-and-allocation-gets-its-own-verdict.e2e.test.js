// @ts-check
// A count splits each window's instructions into V8's collector's and the program's, counts the collections by kind, and
// reads the bytes allocated per request inside the SUT. Verified on the cpu-work fixture with and without one short-lived
// 64 KiB array per request, its only difference: the allocation shows in bytes per request and in the collector's work,
// hardly in the program's instructions, and a comparison calls it regressed on allocation, with its verdict on the program.
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { compareRuns } from '../../src/reports/compare/compare-runs.js'
import { COMPARE_FORMATTERS } from '../../src/reports/compare/formats/index.js'
import { failingRows } from '../../src/reports/compare/build-comparison.js'
import { fixtureSut } from '../support/fixture-suts.js'
import { trackRuns } from '../support/leftover-processes.js'
import { missing, skipNote } from '../support/needs.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runInTempDir } from '../support/run-fixture.js'

const runs = trackRuns()
const absent = missing('valgrind')
/** Windows of 60 requests: 60 × 64 KiB fill V8's fixed 4 MB young generation about once a window. */
const COUNT = { measure: /** @type {const} */ ('instructions'), countWarmupRequests: 200, countWindowRequests: 60, countWindows: 6 }
const EXTRA_BYTES = 65_536

/** @param {number} extraBytes one more array of that size per request */
async function countCpuWork (extraBytes) {
  process.env.DYNO_FIXTURE_EXTRA_ALLOCATION_BYTES = String(extraBytes)
  const { written: [record], runDir } = await runInTempDir({ runs, suts: [fixtureSut('cpu-work')], scenarios: ['json'], load: COUNT })
  return { record, runDir }
}

describe.skipIf(absent)(`the collector apart, allocation counted${skipNote(absent)}`, () => {
  afterEach(() => { delete process.env.DYNO_FIXTURE_EXTRA_ALLOCATION_BYTES })

  it('tells an allocation-only change by its bytes and its collector work, and judges it on allocation', async () => {
    const base = await countCpuWork(0)
    const allocating = await countCpuWork(EXTRA_BYTES)
    for (const { record } of [base, allocating]) {
      expect(schemaErrors('result', record)).toEqual([])
      expect(record.status).toBe('ok')
      const count = record.instructions
      for (const window of count.windows) {
        // A window's instructions are the program's and the collector's; dyno's own reading inside collections is apart.
        expect(window.programInstructionsPerRequest + (window.collector?.instructionsPerRequest ?? 0))
          .toBeCloseTo(window.instructionsPerRequest, -1)
        expect(window.allocatedBytesPerRequest).toBeGreaterThan(0)
      }
      expect(count.collector).toHaveProperty('collections')
      // Each collection ran the reading's callbacks, counted beside the window.
      const reading = count.windows.reduce((sum, window) => sum + (window.collector?.readingInstructions ?? 0), 0)
      if (count.collector.collections.scavenge > 0) expect(reading).toBeGreaterThan(0)
      expect(count.allocation.bytesPerRequest).toBeGreaterThan(0)
    }
    const [before, after] = [base.record.instructions, allocating.record.instructions]
    // The allocation, and nothing else, grew: by the array's size, and by the end of a 256 KiB page that a 64 KiB array no longer
    // fits in (3 fit in a page: V8 counts the rest, up to 30 % more, as taken too).
    const grownBytes = after.allocation.bytesPerRequest - before.allocation.bytesPerRequest
    expect(grownBytes).toBeGreaterThan(EXTRA_BYTES * 0.98)
    expect(grownBytes).toBeLessThan(EXTRA_BYTES * 1.35)
    expect(after.collector.collections.scavenge).toBeGreaterThan(before.collector.collections.scavenge)
    expect(after.collector.instructionsPerRequest).toBeGreaterThan(before.collector.instructionsPerRequest)
    // The program's own instructions move far less than all of them: the collector's work is counted apart.
    const programGrowth = after.programInstructionsPerRequest / before.programInstructionsPerRequest - 1
    const allGrowth = after.instructionsPerRequest / before.instructionsPerRequest - 1
    expect(programGrowth).toBeLessThan(allGrowth)

    const comparison = compareRuns([base.runDir], [allocating.runDir], { thresholdPercent: null, paired: false })
    expect(schemaErrors('compare', comparison)).toEqual([])
    const [row] = comparison.rows
    expect(row).toMatchObject({ verdictMetric: 'programInstructionsPerRequest', allocatedBytesPerRequest: { verdict: 'regressed' } })
    expect(row.collectorInstructionsPerRequest?.verdict ?? null).toBeNull()
    expect(comparison.summary.allocationRegressed).toBe(1)
    expect(failingRows(comparison, ['regression'])).toHaveLength(1)
    expect(COMPARE_FORMATTERS.table(comparison)).toMatch(/allocation verdict[\s\S]*regressed[\s\S]*V8's collector, counted apart/)
    expect(COMPARE_FORMATTERS.md(comparison)).toMatch(/\| base bytes\/req \|/)
  }, 300_000)

  afterAll(() => runs.expectNoneLeft(expect))
})

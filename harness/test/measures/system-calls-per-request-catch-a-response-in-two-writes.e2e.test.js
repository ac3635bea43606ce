// @ts-check
// What instruction counts cannot see: node-http writing each response's head and body in two system calls instead of one costs
// almost no instructions. Counted with their system calls, the writes per request go from 1 to 2 and the comparison calls them
// regressed; the same code counted twice is unchanged on every class it compares.
import { afterEach, describe, expect, it } from 'vitest'
import { compareRuns } from '../../src/reports/compare/compare-runs.js'
import { COMPARE_FORMATTERS } from '../../src/reports/compare/formats/index.js'
import { fixtureSut } from '../support/fixture-suts.js'
import { trackRuns } from '../support/leftover-processes.js'
import { missing, skipNote } from '../support/needs.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runInTempDir } from '../support/run-fixture.js'

const runs = trackRuns()
const absent = missing('valgrind', 'strace')
const COUNT = { measure: /** @type {const} */ ('instructions'), countWarmupRequests: 2000, countWindowRequests: 200, countWindows: 8 }

/** @param {boolean} twoWrites */
async function count (twoWrites) {
  if (twoWrites) process.env.DYNO_FIXTURE_TWO_WRITES = '1'
  else delete process.env.DYNO_FIXTURE_TWO_WRITES
  const {
    written: [record],
    runDir
  } = await runInTempDir({ runs, suts: [fixtureSut('json-in-two-writes')], scenarios: ['json'], load: COUNT })
  return { record, runDir }
}

describe.skipIf(absent)(`system calls per request${skipNote(absent)}`, () => {
  afterEach(() => { delete process.env.DYNO_FIXTURE_TWO_WRITES })

  it('are counted per window beside the instructions, one writev and one read per json response', async () => {
    const { record } = await count(false)
    expect(schemaErrors('result', record)).toEqual([])
    const syscalls = record.instructions.syscalls
    expect(syscalls).toMatchObject({ tool: 'strace', method: 'uninstrumented pass', compared: ['writes', 'reads'] })
    expect(syscalls.windows).toHaveLength(8)
    for (const window of syscalls.windows) {
      expect(window.requests).toBe(200)
      expect((window.calls.writev ?? 0) + (window.calls.write ?? 0)).toBeGreaterThanOrEqual(200)
      expect(window.perRequest.writes).toBeGreaterThanOrEqual(1)
      expect(window.perRequest.writes).toBeLessThan(1.05)
      expect(window.perRequest.reads).toBeGreaterThanOrEqual(1)
      expect(window.perRequest.reads).toBeLessThan(1.05)
    }
  }, 300_000)

  it('call a response in two writes regressed where instructions barely move, and the same code unchanged', async () => {
    const base = await count(false)
    const again = await count(false)
    const split = await count(true)
    expect(split.record.instructions.syscalls.perRequest.writes).toBeGreaterThanOrEqual(2)

    const aa = compareRuns([base.runDir], [again.runDir], { thresholdPercent: null, paired: false })
    expect(aa.rows[0].writesPerRequest?.verdict).toBe('unchanged')
    expect(aa.rows[0].readsPerRequest?.verdict).toBe('unchanged')
    expect(aa.summary.syscallsRegressed).toBe(0)

    const regressed = compareRuns([base.runDir], [split.runDir], { thresholdPercent: null, paired: false })
    const [row] = regressed.rows
    expect(row.writesPerRequest?.verdict).toBe('regressed')
    expect(row.writesPerRequest?.changePercent).toBeGreaterThan(90)
    expect(row.readsPerRequest?.verdict).toBe('unchanged')
    expect(row.pollingPerRequest?.verdict).toBeNull()
    expect(regressed.summary.syscallsRegressed).toBe(1)
    const markdown = COMPARE_FORMATTERS.md(regressed)
    expect(markdown).toMatch(/system calls per request regressed in 1 row/)
    expect(markdown).toMatch(/\| fixture-json-in-two-writes \| json \| 1\.0\d\d \| 2\.0\d\d \| \+\d+\.\d% .*\| \*\*regressed\*\* \|/)
    expect(
      JSON.parse(COMPARE_FORMATTERS.bmf(regressed))['fixture-json-in-two-writes/json/c10']['write-syscalls'].value
    ).toBeGreaterThanOrEqual(2)
    expect(JSON.parse(COMPARE_FORMATTERS.json(regressed)).rows[0].writesPerRequest.verdict).toBe('regressed')
  }, 600_000)
})

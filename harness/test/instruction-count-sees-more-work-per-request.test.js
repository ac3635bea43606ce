// @ts-check
// `--measure instructions` counts what a SUT executes per request under cachegrind, start-up and warm-up
// cancelled out, every response checked: a SUT doing 60% more work per request is counted as doing more.
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { findValgrind } from '../src/instructions/cachegrind.js'
import { fixtureSut } from './support/fixture-suts.js'
import { trackRuns } from './support/leftover-processes.js'
import { schemaErrors } from './support/result-schemas.js'
import { runInTempDir } from './support/run-fixture.js'

const runs = trackRuns()
const valgrind = findValgrind()
if (!valgrind && process.env.CI === 'true') throw new Error('valgrind is missing under CI=true (apt-get install valgrind)')
const COUNT = { measure: /** @type {const} */ ('instructions'), countWarmupRequests: 50, countRequests: 100 }

/** @param {string | null} extraWorkPercent the cpu-work fixture's injected extra work, inherited by the SUT */
async function countCpuWork (extraWorkPercent) {
  if (extraWorkPercent === null) delete process.env.DYNO_FIXTURE_EXTRA_WORK_PERCENT
  else process.env.DYNO_FIXTURE_EXTRA_WORK_PERCENT = extraWorkPercent
  const { written: [record] } = await runInTempDir({ runs, suts: [fixtureSut('cpu-work')], scenarios: ['json'], load: COUNT })
  return record
}

describe.skipIf(!valgrind)(`instruction counts${valgrind ? '' : ' (skipped: valgrind is not installed; apt-get install valgrind)'}`, () => {
  afterEach(() => { delete process.env.DYNO_FIXTURE_EXTRA_WORK_PERCENT })

  it('counts the instructions of a request from two launches, checks every response, and sees 60% more work', async () => {
    const base = await countCpuWork(null)
    expect(schemaErrors('result', base)).toEqual([])
    expect(base).toMatchObject({ status: 'ok', load: COUNT, summary: null })
    const count = base.instructions
    expect(count.launches.map((launch) => launch.requests)).toEqual([50, 150])
    expect(count.checks).toEqual({ responses: 200, mismatches: 0, unexpectedStatus: 0, errors: 0 })
    expect(count.settings.nodeFlags).toContain('--single-threaded')
    // About 0.5 ms of a xorshift loop per request: far above node:http's own cost, so in the hundreds of thousands.
    expect(count.instructionsPerRequest).toBeGreaterThan(300_000)
    expect(count.instructionsPerRequest).toBe(Math.round((count.launches[1].instructions - count.launches[0].instructions) / 100))

    const slower = await countCpuWork('60')
    expect(slower.status).toBe('ok')
    expect(slower.instructions.instructionsPerRequest / count.instructionsPerRequest).toBeGreaterThan(1.3)
  }, 300_000)

  afterAll(() => runs.expectNoneLeft(expect))
})

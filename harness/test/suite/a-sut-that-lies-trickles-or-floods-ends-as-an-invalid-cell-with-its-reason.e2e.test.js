// @ts-check
// One hostile SUT (fixtures/suts/hostile), in each of its modes: it lies about a body's length, trickles its answer a byte at a time,
// floods a body that never ends, or fills its stderr with neither newline nor mercy. Whatever it does, verification, each engine's
// load (verification off, so that the load meets the lie) and a capacity search end within bounded time as a cell that is not ok,
// with the reason named and no stack trace, and run.json is finished. The stderr-filling SUT that answers rightly is measured as any.
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { capacity } from '../../src/measures/capacity/capacity.js'
import { VERIFY_BODY_LIMIT_BYTES } from '../../src/subjects/verify/http-probe.js'
import { fixtureSut } from '../support/fixture-suts.js'
import { trackRuns } from '../support/leftover-processes.js'
import { runInTempDir } from '../support/run-fixture.js'
import { schemaErrors } from '../support/result-schemas.js'

const runs = trackRuns()
afterEach(() => { delete process.env.DYNO_FIXTURE_HOSTILE })

/** The bound on a cell's time: its load is half a second, verification two requests of 5 s; a busy machine is slow, never this slow. */
const CELL_BOUND_MS = 60_000

/**
 * One cell of the hostile SUT in `mode`, with how long it took.
 * @param {'lies' | 'trickles' | 'floods' | 'stderr'} mode
 * @param {Omit<Parameters<typeof runInTempDir>[0], 'runs' | 'suts' | 'scenarios'>} run
 */
async function hostileCell (mode, run) {
  process.env.DYNO_FIXTURE_HOSTILE = mode
  const startedMs = performance.now()
  const { written: [record], index } = await runInTempDir({ runs, suts: [fixtureSut('hostile')], scenarios: ['json'], ...run })
  const tookMs = performance.now() - startedMs
  expect(schemaErrors('result', record)).toEqual([])
  expect(index.status).toBe('complete')
  expect(tookMs).toBeLessThan(CELL_BOUND_MS)
  if (record.reason) expect(record.reason).not.toMatch(/\n\s+at /)
  return record
}

describe('a SUT that lies, trickles or floods', () => {
  it.each([
    ['lies', `a Content-Length of 18446744073709551615 passes the ${VERIFY_BODY_LIMIT_BYTES}-byte limit`],
    ['trickles', 'no complete answer within 5000 ms'],
    ['floods', `the body passed ${VERIFY_BODY_LIMIT_BYTES} bytes`]
  ])('that %s fails verification, named, and is never loaded', async (mode, reason) => {
    const record = await hostileCell(/** @type {'lies' | 'trickles' | 'floods'} */ (mode), {})
    expect(record).toMatchObject({ status: 'invalid', errorCode: 'DYNO_ERR_RESPONSE_MISMATCH', summary: null })
    expect(record.reason).toContain(reason)
  }, CELL_BOUND_MS * 2)

  for (const mode of /** @type {const} */ (['lies', 'trickles', 'floods'])) {
    const loaded = `that ${mode}, loaded by %s, is invalid with what kept its answers from being whole`
    it.each(['autocannon', 'wrk', 'native'])(loaded, async (engine) => {
      const record = await hostileCell(mode, { verify: false, load: { engine } })
      expect(record).toMatchObject({ status: 'invalid', errorCode: 'DYNO_ERR_UNEXPECTED_UNDER_LOAD' })
      // The native engine names each lie it refused; an engine that does not judge lengths completed no response whole. A flood sent
      // faster than wrk reads it holds wrk's thread past the phase: wrk is stopped then, and says so (wrk-phase.js).
      const lie = /responses were invalid \(\d+× (a Content-Length over|chunks adding up to more than) bodyLimitBytes\)/
      expect(record.reason).toMatch(new RegExp(`${lie.source}|no response completed|an answer that never ends`))
      if (engine === 'native' && mode !== 'trickles') expect(record.summary.invalidResponses).toBeGreaterThan(0)
    }, CELL_BOUND_MS * 2)

    it(`that ${mode}, searched for its capacity, is invalid at its closed-loop ceiling`, async () => {
      const record = await hostileCell(mode, {
        verify: false,
        measure: capacity,
        load: {
          engine: 'native',
          warmupSec: 0.2,
          durationSec: 0.5,
          capacity: { objective: 'p50<=50ms', minRatePerSec: 100, maxRatePerSec: 1600, stepSec: 0.2 }
        }
      })
      expect(record).toMatchObject({ status: 'invalid', errorCode: 'DYNO_ERR_UNEXPECTED_UNDER_LOAD' })
      expect(record.reason).toMatch(/^the closed-loop ceiling: DYNO_ERR_UNEXPECTED_UNDER_LOAD: measure: /)
      expect(record.capacity.steps).toEqual([])
    }, CELL_BOUND_MS * 2)
  }

  it('that fills its stderr without a newline while answering rightly is verified and measured', async () => {
    const record = await hostileCell('stderr', { load: { engine: 'native' } })
    expect(record.status, record.reason ?? '').toBe('ok')
    expect(record.summary.requests).toBeGreaterThan(0)
  }, CELL_BOUND_MS * 2)
})

afterAll(() => runs.expectNoneLeft(expect))

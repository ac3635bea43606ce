// @ts-check
import { afterAll, expect, it } from 'vitest'
import { fixtureSut } from '../support/fixture-suts.js'
import { trackRuns } from '../support/leftover-processes.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runInTempDir } from '../support/run-fixture.js'

const runs = trackRuns()

it('counts wrong bodies and unexpected statuses under load and ends the run invalid with the counts', async () => {
  const { written: [record] } = await runInTempDir({ runs, suts: [fixtureSut('wrong-under-load')], scenarios: ['json'] })
  expect(schemaErrors('result', record)).toEqual([])
  expect(record.verification.passed).toBe(true)
  expect(record).toMatchObject({ status: 'invalid', errorCode: 'DYNO_ERR_UNEXPECTED_UNDER_LOAD' })
  const { summary } = record
  // One answer in ten is a wrong body, one in ten a 503 (whose body is wrong too).
  expect(summary.unexpectedStatus).toBe(summary.statusCounts['503'])
  expect(summary.unexpectedStatus).toBeGreaterThan(summary.requests / 12)
  expect(summary.mismatches).toBeGreaterThan(summary.requests / 6)
  expect(summary.non2xx).toBe(summary.unexpectedStatus)
  expect(record.reason).toContain(`measure: ${summary.mismatches} of ${summary.requests} responses had a body that does not match`)
  expect(record.reason).toContain(`measure: ${summary.unexpectedStatus} of ${summary.requests} responses had a status other than 200 ` +
    `(${summary.unexpectedStatus}× 503)`)
}, 30_000)

afterAll(() => runs.expectNoneLeft(expect))

// @ts-check
import { afterAll, expect, it } from 'vitest'
import { fixtureSut } from '../support/fixture-suts.js'
import { trackRuns } from '../support/leftover-processes.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runInTempDir } from '../support/run-fixture.js'

const runs = trackRuns()

it('marks the run invalid, names the failed check, and sends no load', async () => {
  const { written: [record] } = await runInTempDir({ runs, suts: [fixtureSut('wrong-body')], scenarios: ['json'] })
  expect(schemaErrors('result', record)).toEqual([])
  expect(record).toMatchObject({ status: 'invalid', errorCode: 'DYNO_ERR_RESPONSE_MISMATCH', warmup: null, summary: null })
  expect(record.reason).toContain(
    'GET /json: body (exact) expected "{\\"message\\":\\"Hello, World!\\"}", got "{\\"message\\":\\"Hello, Dyno!\\"}"'
  )
  const bodyCheck = record.verification.checks.find((/** @type {{ check: string }} */ check) => check.check === 'body (exact)')
  expect(bodyCheck).toMatchObject({ ok: false, actual: '{"message":"Hello, Dyno!"}' })
  expect(record.verification.checks.find((/** @type {{ check: string }} */ check) => check.check === 'status')).toMatchObject({ ok: true })
}, 30_000)

it('with --no-verify, measures and says verification was not performed', async () => {
  const { written: [record] } = await runInTempDir({ runs, suts: [fixtureSut('wrong-body')], scenarios: ['json'], verify: false })
  expect(schemaErrors('result', record)).toEqual([])
  expect(record.verification).toEqual({ performed: false, passed: false, checks: [] })
  // Under load every body is wrong, so the run still cannot come out clean.
  expect(record).toMatchObject({ status: 'invalid', errorCode: 'DYNO_ERR_UNEXPECTED_UNDER_LOAD' })
  expect(record.summary.mismatches).toBe(record.summary.requests)
}, 30_000)

afterAll(() => runs.expectNoneLeft(expect))

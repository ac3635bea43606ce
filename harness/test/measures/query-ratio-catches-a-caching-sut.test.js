// @ts-check
import { afterAll, expect, it } from 'vitest'
import { loadSut } from '../../src/subjects/suts/discover-suts.js'
import { PACKAGES_DIR } from '../../src/platform/paths.js'
import { fixtureSut } from '../support/fixture-suts.js'
import { trackRuns } from '../support/leftover-processes.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runInTempDir } from '../support/run-fixture.js'
import { skipUnless } from '../support/needs.js'

const runs = trackRuns()

it('counts one Redis GET per response for a SUT that does the work', async (context) => {
  skipUnless(context, 'redis')
  const { written: [record] } = await runInTempDir({ runs, suts: [loadSut(`${PACKAGES_DIR}node-http`)], scenarios: ['redis'] })
  expect(schemaErrors('result', record)).toEqual([])
  expect(record.status).toBe('ok')
  expect(record.serverCheck).toMatchObject({ service: 'redis', withinBounds: true })
  expect(record.serverCheck.queriesPerRequest).toBeGreaterThanOrEqual(0.99)
  expect(record.serverCheck.queriesPerRequest).toBeLessThan(1.05)
  expect(record.env.services.redis).toMatchObject({ source: 'managed', version: expect.stringMatching(/^\d+\.\d+/) })
}, 60_000)

it('marks a SUT that answers from a cache invalid, with the ratio', async (context) => {
  skipUnless(context, 'redis')
  const { written: [record] } = await runInTempDir({ runs, suts: [fixtureSut('caching-redis')], scenarios: ['redis'] })
  expect(schemaErrors('result', record)).toEqual([])
  // Every response is right, so only the server's own count can tell.
  expect(record.verification.passed).toBe(true)
  expect(record.summary.mismatches).toBe(0)
  expect(record).toMatchObject({
    status: 'invalid',
    errorCode: 'DYNO_ERR_QUERY_RATIO',
    serverCheck: { service: 'redis', withinBounds: false }
  })
  expect(record.serverCheck.queriesPerRequest).toBeLessThan(0.01)
  expect(record.reason).toMatch(/redis counted \d+ queries for \d+ responses/)
}, 60_000)

afterAll(() => runs.expectNoneLeft(expect))

// @ts-check
// The runtime matrix: Node SUTs on an npm-installed Node 24 and on Bun pass the contract, except the
// scenario whose native addon cannot load there (skipped with the reason), and a SUT that declares it
// cannot run on a runtime is skipped with its reason, never measured in a degraded mode.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { verifySuts } from '../../src/interface/commands/verify-command.js'
import { runEnv } from '../../src/platform/env/run-env.js'
import { startServices } from '../../src/subjects/services/service-manager.js'
import { resolveRuntimeTarget } from '../../src/subjects/runtimes/runtime-targets.js'
import { trackRuns } from '../support/leftover-processes.js'
import { runInTempDir } from '../support/run-fixture.js'
import { discoverSuts } from '../../src/subjects/suts/discover-suts.js'
import { resolveSubjects } from '../../src/subjects/suts/resolve-subjects.js'

const runs = trackRuns()
const RUNTIMES = ['node@24', 'bun']
/** @type {import('../../src/subjects/services/service-manager.js').Services} */
let services
/** @type {import('../../src/interface/commands/verify-command.js').VerifyRow[]} */
let rows = []

beforeAll(async () => {
  for (const name of RUNTIMES) {
    const { problem } = resolveRuntimeTarget(name)
    if (problem) throw new Error(`${name} is a workspace dependency (runtimes/) and must be installed: ${problem}`)
  }
  const runId = runs.add(`runtime-test-${process.pid}`)
  services = await startServices(['redis', 'sqlite'], { mark: runEnv(runId) })
  rows = await verifySuts({
    frameworks: ['node-http', 'fastify', 'restify'],
    scenarios: ['json', 'error', 'validation', 'redis', 'sqlite', 'sqlite-async'],
    runtimes: RUNTIMES,
    workers: 1,
    readyTimeoutSec: 30
  }, { services, runId })
}, 180_000)

afterAll(async () => {
  await services?.stopAll()
  runs.expectNoneLeft(expect)
})

it('labels each SUT with its runtime and records the runtime\'s own version', () => {
  expect(rows.map((row) => row.sut.label).sort())
    .toEqual(['fastify (bun)', 'fastify (node@24)', 'node-http (bun)', 'node-http (node@24)', 'restify (bun)', 'restify (node@24)'])
  const onNode24 = rows.find((row) => row.sut.label === 'node-http (node@24)')
  expect(onNode24?.sut.runtime.version).toMatch(/^v24\./)
  expect(rows.find((row) => row.sut.label === 'node-http (bun)')?.sut.runtime.version).toMatch(/^\d+\.\d+\.\d+/)
})

it.each([['node-http'], ['fastify']])(
  '%s passes on node@24 and bun, with sqlite skipped because better-sqlite3 cannot load there',
  (name) => {
    for (const runtime of RUNTIMES) {
      const row = rows.find((candidate) => candidate.sut.label === `${name} (${runtime})`)
      const states = Object.fromEntries((row?.cells ?? []).map((cell) => [cell.scenario, cell.state]))
      expect(states, `${name} on ${runtime}`).toEqual({
        json: 'pass',
        error: 'pass',
        validation: 'pass',
        redis: services.unavailable.has('redis') ? 'skipped' : 'pass',
        sqlite: 'skipped',
        'sqlite-async': 'pass'
      })
      expect(row?.cells.find((cell) => cell.scenario === 'sqlite')?.reason).toMatch(
        /better-sqlite3 is a native addon built for Node 20\.\d+\.\d+ .*cannot load it/
      )
    }
  }
)

it('skips a SUT on a runtime it declares it cannot run on, with the declared reason', () => {
  for (const runtime of RUNTIMES) {
    const row = rows.find((candidate) => candidate.sut.label === `restify (${runtime})`)
    expect(row?.cells.every((cell) => cell.state === 'skipped'), `restify on ${runtime}`).toBe(true)
    expect(row?.cells[0].reason).toMatch(new RegExp(`restify cannot run correctly on ${runtime.replace('@', '@')}: `))
  }
})

it('records the runtime in the result of a run', async () => {
  const [subject] = await resolveSubjects(discoverSuts().filter((sut) => sut.name === 'node-http'), { runtimes: ['node@24'], workers: 1 })
  const { written } = await runInTempDir({ runs, suts: [subject], scenarios: ['json'], load: { durationSec: 0.5 } })
  expect(written[0].status).toBe('ok')
  expect(written[0].sut).toMatchObject({ name: 'node-http', label: 'node-http', runtime: 'node@24', runtimeKind: 'node', workers: 1 })
  expect(written[0].sut.runtimeVersion).toMatch(/^v24\./)
}, 60_000)

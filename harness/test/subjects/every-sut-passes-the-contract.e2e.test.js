// @ts-check
import { SCENARIOS } from '@dyno/scenarios'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseOptions } from '../../src/interface/cli/command-table.js'
import { verifySuts } from '../../src/interface/commands/verify-command.js'
import { runEnv } from '../../src/platform/env/run-env.js'
import { startServices } from '../../src/subjects/services/service-manager.js'
import { discoverSuts } from '../../src/subjects/suts/discover-suts.js'
import { trackRuns } from '../support/leftover-processes.js'
import { skipUnless, toolchainOf } from '../support/needs.js'

// Every SUT package, started for real on port 0, checked on every scenario and probe of the contract,
// the database scenarios against real Redis, PostgreSQL and SQLite that the harness starts.
const runs = trackRuns()
const suts = discoverSuts()
const serviceNames = [...new Set(SCENARIOS.flatMap((scenario) => scenario.services ?? []))]
/** @type {import('../../src/subjects/services/service-manager.js').Services} */
let services
/** @type {Map<string, import('../../src/interface/commands/verify-command.js').VerifyRow>} */
const rows = new Map()

beforeAll(async () => {
  const runId = runs.add(`verify-test-${process.pid}`)
  services = await startServices(serviceNames, { mark: runEnv(runId) })
  const options = parseOptions('verify', { '--ready-timeout': '30' }).values
  const verified = await verifySuts(options, { suts, services, runId, onBuildLine: (name, line) => console.log(`build ${name}: ${line}`) })
  for (const row of verified) rows.set(row.sut.name, row)
}, 900_000)

afterAll(async () => {
  await services?.stopAll()
  runs.expectNoneLeft(expect)
})

it('has every data service the database scenarios need (a missing one fails under CI=true)', (context) => {
  skipUnless(context, 'redis', 'postgres')
  expect(Object.fromEntries(services.unavailable)).toEqual({})
})

/**
 * @param {string} name
 * @param {(scenario: import('@dyno/scenarios').Scenario) => boolean} which
 * @param {{ skip: (note?: string) => void }} context
 */
function expectConformance (name, which, context) {
  const sut = suts.find((candidate) => candidate.name === name)
  const row = rows.get(name)
  if (!sut || !row) throw new Error(`${name} was not verified`)
  // A SUT whose toolchain is missing here (Go, Python) is skipped with what to install; under CI=true it fails. Skipped with its
  // toolchain here, it failed to build.
  if (row.sut.skipReason) {
    skipUnless(context, ...toolchainOf(sut))
    throw new Error(`${name} was skipped although its toolchain is here: ${row.sut.skipReason}`)
  }
  const cells = row.cells.filter((cell) =>
    which(/** @type {import('@dyno/scenarios').Scenario} */ (SCENARIOS.find((scenario) => scenario.name === cell.scenario))))
  expect(cells.filter((cell) => cell.state === 'fail').map((cell) => `${cell.scenario}: ${cell.reason}`)).toEqual([])
  // A scenario may be skipped only where the package declares, with a reason, that it cannot serve it.
  const declared = Object.keys(sut.unsupportedScenarios)
  expect(cells.filter((cell) => cell.state === 'skipped').map((cell) => cell.scenario))
    .toEqual(cells.map((cell) => cell.scenario).filter((scenario) => declared.includes(scenario)))
}

const usesServices = (/** @type {import('@dyno/scenarios').Scenario} */ scenario) => (scenario.services ?? []).length > 0

describe('the route contract', () => {
  for (const sut of suts) {
    it.skipIf(sut.skipReason !== null)(`${sut.name} passes every scenario without services` +
      `${sut.skipReason ? ` (skipped: ${sut.skipReason})` : ''}`, (context) => {
      expectConformance(sut.name, (scenario) => !usesServices(scenario), context)
    })
    it.skipIf(sut.skipReason !== null)(`${sut.name} passes every database scenario`, (context) => {
      skipUnless(context, 'redis', 'postgres')
      expectConformance(sut.name, usesServices, context)
    })
  }
})

// @ts-check
import { afterAll, describe, expect, it } from 'vitest'
import { verifySuts } from '../src/commands/verify-command.js'
import { discoverSuts } from '../src/suts/discover-suts.js'
import { trackRuns } from './support/leftover-processes.js'

const runs = trackRuns()

// Every SUT package, started for real on port 0, checked on every scenario and probe of the contract.
const suts = discoverSuts()

describe.concurrent('the route contract', () => {
  for (const sut of suts) {
    it.skipIf(sut.skipReason !== null)(`${sut.name} passes every scenario${sut.skipReason ? ` (skipped: ${sut.skipReason})` : ''}`, async () => {
      const [row] = await verifySuts({ frameworks: [sut.name], readyTimeoutSec: 30 }, { suts: [sut], runId: runs.add(`verify-test-${sut.name}-${process.pid}`) })
      const failures = row.cells.filter((cell) => cell.state === 'fail').map((cell) => `${cell.scenario}: ${cell.reason}`)
      expect(failures).toEqual([])
      // A scenario may be skipped only where the package declares, with a reason, that it cannot serve it.
      const skipped = row.cells.filter((cell) => cell.state === 'skipped').map((cell) => cell.scenario)
      expect(skipped).toEqual(Object.keys(sut.unsupportedScenarios))
    }, 90_000)
  }
})

afterAll(() => runs.expectNoneLeft(expect))

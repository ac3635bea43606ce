// @ts-check
import { afterAll, expect, it } from 'vitest'
import { DEFAULTS } from '../../src/platform/defaults.js'
import { processGroupAlive } from '../../src/platform/process/process-group.js'
import { fixtureSut } from '../support/fixture-suts.js'
import { trackRuns } from '../support/leftover-processes.js'
import { runInTempDir } from '../support/run-fixture.js'

const runs = trackRuns()

it('sends SIGKILL after the grace period and leaves no process of the group, grandchildren included', async () => {
  const {
    written: [record]
  } = await runInTempDir({ runs, suts: [fixtureSut('ignores-sigterm')], scenarios: ['json'], load: { durationSec: 0.5 } })
  expect(record.status).toBe('ok')
  expect(record.sutProcess.forcedKill).toBe(true)
  expect(record.sutProcess.exit).toEqual({ code: null, signal: 'SIGKILL' })
  expect(record.sutProcess.stderrTail).toContain('fixture ignores-sigterm: ignoring SIGTERM')
  expect(processGroupAlive(record.sutProcess.pid)).toBe(false)
}, 15_000 + DEFAULTS.stopGraceSec * 1000)

afterAll(() => runs.expectNoneLeft(expect))

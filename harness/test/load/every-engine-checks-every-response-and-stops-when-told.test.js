// @ts-check
// What every load engine of the registry must do, run once over each that runs here (an engine added tomorrow is held to it the
// day it is registered): count every wrong body and unexpected status of a SUT that breaks under load, whether the body is
// expected as exact text or as JSON; and stop at once when told, still reporting the phase under way as stopped early and
// running no further phase.
import { afterAll, describe, expect, it } from 'vitest'
import { ENGINES } from '../../src/load/engines/index.js'
import { PACKAGES_DIR } from '../../src/platform/paths.js'
import { loadSut } from '../../src/subjects/suts/discover-suts.js'
import { expectWrongUnderLoadCounted, planFor, withSut } from '../support/engine-under-test.js'
import { fixtureSut } from '../support/fixture-suts.js'
import { trackRuns } from '../support/leftover-processes.js'
import { missingEngine, skipNote } from '../support/needs.js'
import { scenarioNamed } from '../support/run-fixture.js'

const runs = trackRuns()

for (const engine of ENGINES) {
  const absent = missingEngine(engine)
  describe.skipIf(absent)(`the ${engine.name} engine${skipNote(absent)}`, () => {
    it('counts wrong bodies and unexpected statuses from a SUT that breaks under load, exact text and JSON alike', async () => {
      const exact = scenarioNamed('json').expect.body
      const byJson = { json: JSON.parse(/** @type {string} */ (exact?.text)) }
      for (const expectedBody of [exact, byJson]) {
        const { phases } = await withSut(runs, fixtureSut('wrong-under-load'), (port, env) =>
          engine.start(planFor(port, 'json', { expectedBody }), { env, threads: 1 }).done)
        expectWrongUnderLoadCounted(/** @type {import('../../src/load/load-plan.js').PhaseSummary} */ (phases.measure), expect)
      }
    }, 30_000)

    it('stops at once when told: it still reports the phase under way, stoppedEarly, and runs no further phase', async () => {
      const phaseSec = 20
      const startedAt = Date.now()
      const { phases } = await withSut(runs, loadSut(`${PACKAGES_DIR}node-http`), (port, env) => {
        const plan = planFor(port, 'plaintext', {
          phases: [
            { name: 'warmup', durationSec: phaseSec },
            { name: 'measure', durationSec: phaseSec }
          ]
        })
        const load = engine.start(plan, { env, threads: 1, onProgress: ({ elapsedSec }) => { if (elapsedSec >= 1) load.stop() } })
        return load.done
      })
      // Well before the first phase alone would have ended, by this machine's clock and by the engine's own.
      expect(Date.now() - startedAt).toBeLessThan(phaseSec * 1000)
      expect(phases.measure).toBeUndefined()
      expect(phases.warmup).toMatchObject({ stoppedEarly: true, unexpectedStatus: 0, mismatches: 0 })
      expect(phases.warmup?.requests).toBeGreaterThan(100)
      expect(phases.warmup?.durationSec).toBeLessThan(phaseSec / 4)
    }, 40_000)
  })
}

afterAll(() => runs.expectNoneLeft(expect))

// @ts-check
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runSuite } from '../../src/suite/run-suite.js'
import { fixtureSut } from './fixture-suts.js'
import { scenarioNamed, shortLoad } from './run-fixture.js'
import { ON_A_SHARED_MACHINE, suiteOptions } from './suite-options.js'

/**
 * Runs the cpu-work fixture on the json scenario for several sides, one run per side per round, the
 * order rotated every round so that drift of the machine reaches every side alike. A side is its
 * extra work per request (DYNO_FIXTURE_EXTRA_WORK_PERCENT, e.g. '10'; null for none). Each side's
 * runs land in its own directory of run directories, which `dyno compare` reads as one side.
 * @param {{ sides: { name: string, extraWorkPercent: string | null }[], rounds: number, durationSec?: number, warmupSec?: number,
 *   runs: { add: (runId: string) => string } }} options runs: the leftover-process tracker
 * @returns {Promise<Record<string, string>>} each side's directory, by name
 */
export async function interleavedFixtureRuns ({ sides, rounds, durationSec = 1, warmupSec = 0.25, runs }) {
  const sut = fixtureSut('cpu-work')
  const root = mkdtempSync(join(tmpdir(), 'dyno-interleaved-'))
  /** @type {Record<string, string>} */
  const dirs = Object.fromEntries(sides.map((side) => [side.name, join(root, side.name)]))
  for (let round = 0; round < rounds; round++) {
    for (let offset = 0; offset < sides.length; offset++) {
      const side = sides[(round + offset) % sides.length]
      // The SUT inherits the harness's environment: the variable reaches the fixture alone.
      if (side.extraWorkPercent) process.env.DYNO_FIXTURE_EXTRA_WORK_PERCENT = side.extraWorkPercent
      try {
        const outcome = await runSuite(...suiteOptions({
          suts: [sut],
          scenarios: [scenarioNamed('json')],
          load: shortLoad({ durationSec, warmupSec }),
          out: dirs[side.name],
          ...ON_A_SHARED_MACHINE,
          recorded: { test: true, extraWorkPercent: side.extraWorkPercent }
        }), { onStart: ({ runId }) => runs.add(runId) })
        const [record] = outcome.records
        if (record.status !== 'ok') throw new Error(`the fixture run of ${side.name} is ${record.status}: ${record.reason}`)
      } finally {
        delete process.env.DYNO_FIXTURE_EXTRA_WORK_PERCENT
      }
    }
  }
  return dirs
}

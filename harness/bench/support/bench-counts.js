// @ts-check
// What the bench scripts that count instructions share: SUTs resolved as `dyno run` resolves them, a scenario by name,
// one count with dyno's defaults for whatever the script does not vary, and the spread of a list of counts.
import { join } from 'node:path'
import { mean, sampleStandardDeviation } from 'simple-statistics'
import { SCENARIOS } from '@dyno/scenarios'
import {
  countInstructions, countSettingsFor, INSTRUCTION_COUNT_DEFAULTS, INSTRUCTION_COUNT_READY_TIMEOUT_SEC
} from '../../src/measures/instructions/counts/count-instructions.js'
import { PACKAGES_DIR } from '../../src/platform/paths.js'
import { runEnv } from '../../src/platform/env/run-env.js'
import { createRunId } from '../../src/records/run-id.js'
import { DEFAULT_RUNTIME } from '../../src/subjects/runtimes/runtime-targets.js'
import { loadSut } from '../../src/subjects/suts/discover-suts.js'
import { resolveSubjects } from '../../src/subjects/suts/resolve-subjects.js'

/**
 * @param {string[]} names SUT packages under packages/ @returns {Promise<import('../../src/subjects/suts/resolve-subjects.js').Subject[]>}
 */
export const benchSuts = (names) =>
  resolveSubjects(
    names.map((name) => loadSut(join(PACKAGES_DIR, name))),
    { runtimes: [DEFAULT_RUNTIME], workers: 1 }
  )

/** @param {string} name @returns {import('@dyno/scenarios').Scenario} */
export function scenarioNamed (name) {
  const scenario = SCENARIOS.find((candidate) => candidate.name === name)
  if (!scenario) throw new Error(`no scenario ${name}; there are ${SCENARIOS.map((candidate) => candidate.name).join(', ')}`)
  return scenario
}

/**
 * One count of a SUT on a fresh launch, with dyno's defaults for what is not given; a wrong response fails the script.
 * @param {{ sut: import('../../src/subjects/suts/resolve-subjects.js').Subject, scenario: import('@dyno/scenarios').Scenario, concurrency?:
 *   number, settings?: import('../../src/measures/instructions/counts/count-instructions.js').CountSettings }} plan
 */
export async function countOnce ({
  sut, scenario, concurrency = INSTRUCTION_COUNT_DEFAULTS.concurrency, settings = countSettingsFor(sut)
}) {
  const count = await countInstructions({
    sut,
    scenario,
    env: runEnv(createRunId()),
    warmupRequests: INSTRUCTION_COUNT_DEFAULTS.warmupRequests,
    windowRequests: INSTRUCTION_COUNT_DEFAULTS.windowRequests,
    windows: INSTRUCTION_COUNT_DEFAULTS.windows,
    concurrency,
    readyTimeoutSec: INSTRUCTION_COUNT_READY_TIMEOUT_SEC,
    settings
  })
  const bad = count.checks.mismatches + count.checks.unexpectedStatus + count.checks.errors
  if (bad > 0) throw new Error(`${sut.name}: ${bad} bad responses of ${count.checks.responses} while counting`)
  return count
}

/** @param {number[]} list @returns {number} the coefficient of variation in percent (0 for fewer than two values) */
export const cvPercent = (list) => list.length > 1 ? sampleStandardDeviation(list) / mean(list) * 100 : 0

// @ts-check
// The rounds of a profile with a time budget (the default profile), from the machine's spread: the calibration kept in the cache
// directory (measured the first time, noise-calibration.js), sized by size-repeats.js, with its line before the run when the budget
// cannot pay for what the spread needs. What run.json records of it is the plan returned.
import { SCENARIOS } from '@dyno/scenarios'
import { discoverSuts } from '../../../subjects/suts/discover-suts.js'
import { noiseCalibration } from './noise-calibration.js'
import { sizeRepeats } from './size-repeats.js'

/**
 * @typedef {object} NoisePlanContext
 * @property {import('../../../load/engines/engine.js').Engine} engine the run's
 * @property {import('../../../platform/options/option-spec.js').OptionValues} engineOptions
 * @property {number} connections the run's first level
 * @property {number} budgetSec the profile's
 * @property {import('@dyno/scenarios').LoadProfile} profile
 * @property {import('@dyno/scenarios').Scenario[]} scenarios the run's
 * @property {number} cells the run's
 * @property {import('../../../records/result-record.js').LoadSettings} load
 * @property {import('../../measure.js').Measure} measure
 * @property {import('../../../platform/pinning/resolve-pinning.js').PinPlan} pinning
 * @property {boolean} freshSut
 * @property {string} cacheDir
 * @property {number} readyTimeoutSec
 * @property {number} profileRepeats what the run gets when the spread cannot be measured
 * @property {string} rankBy `--rank-by`: the figure whose spread sizes the rounds, or `auto` for the steadier
 * @property {AbortSignal} signal
 * @property {(line: string) => void} log
 */

/**
 * @param {NoisePlanContext} context
 * @returns {Promise<import('./size-repeats.js').NoisePlan | null>} null: the spread could not be measured (the profile's rounds, with a
 *   line saying why)
 */
export async function noisePlanOf (context) {
  const { engine, load, profile, scenarios, signal, log } = context
  const { calibration, file, reason } = await noiseCalibration({
    engine,
    engineOptions: context.engineOptions,
    connections: context.connections,
    warmupSec: load.warmupSec,
    roundSec: load.durationSec,
    measure: context.measure,
    runLoad: load,
    launchScenarios: (profile.scenarios ?? SCENARIOS.map((scenario) => scenario.name)).filter((name) =>
      !SCENARIOS.find((scenario) => scenario.name === name)?.services?.length),
    pinning: context.pinning,
    cacheDir: context.cacheDir,
    readyTimeoutSec: context.readyTimeoutSec,
    signal,
    log
  })
  if (!calibration) {
    if (!signal.aborted) log(`dyno: the machine's spread could not be measured (${reason}): the profile's ${context.profileRepeats} rounds`)
    return null
  }
  const plan = sizeRepeats(calibration, {
    budgetSec: context.budgetSec,
    defaultCells: discoverSuts().length * (profile.scenarios?.length ?? SCENARIOS.length) * profile.connections.length,
    cells: context.cells,
    cellSec: context.measure.plan.cellSec(scenarios[0], load),
    scenariosPerLaunch: context.freshSut ? 1 : scenarios.length,
    calibrationFile: file,
    rankBy: context.rankBy
  })
  if (plan.line) log(`dyno: ${plan.line}`)
  return plan
}

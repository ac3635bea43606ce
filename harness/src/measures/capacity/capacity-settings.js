// @ts-check
// A capacity run's settings: the run's load (its closed-loop ceiling takes the warm-up, duration and connections of the run) and the
// search's own, checked once against each other and against the engine before anything starts, each refusal naming the option.
import { engineProblem } from '../../load/engines/index.js'
import { commonSettings, invalidSetting } from '../load-settings.js'
import { OBJECTIVE_ALLOWED, parseObjective } from './objective.js'

/**
 * @typedef {{ objective: string, minRatePerSec: number, maxRatePerSec: number | null, stepSec: number }} CapacitySearchSettings as a
 *   result's `load.capacity` records them
 */

/**
 * @param {import('../load-settings.js').SettingsInput & Partial<CapacitySearchSettings>} options
 * @param {import('../../load/engines/engine.js').Engine} engine
 * @returns {import('../../records/result-record.js').LoadSettings}
 */
export function capacitySettings (options, engine) {
  const { connections, durationSec, warmupSec, ratePerSec } = options
  if (ratePerSec !== null) {
    throw invalidSetting(`\`--rate ${ratePerSec}\` with \`--measure capacity\`: capacity searches the offered rates itself; ` +
      'give --min-rate and --max-rate to bound the search, or leave --rate out')
  }
  const objective = String(options.objective ?? '')
  const parsed = parseObjective(objective)
  if ('problem' in parsed) throw invalidSetting(`\`--slo ${objective}\`: ${parsed.problem}; allowed: ${OBJECTIVE_ALLOWED}`)
  const minRatePerSec = Number(options.minRatePerSec)
  const maxRatePerSec = options.maxRatePerSec ?? null
  if (maxRatePerSec !== null && maxRatePerSec < minRatePerSec) {
    throw invalidSetting(`\`--max-rate ${maxRatePerSec}\` is below the lowest step \`--min-rate ${minRatePerSec}\`: ` +
      'the highest rate searched must be at least the lowest')
  }
  // The steps are open-model loads: the engine must send on a fixed schedule.
  const settings = engine.settingsOf(options)
  const problem = engineProblem(engine, { connections, durationSec, warmupSec, ratePerSec: minRatePerSec, settings })
  if (problem) throw invalidSetting(`--measure capacity sends fixed offered rates: ${problem}`)
  /** @type {CapacitySearchSettings} */
  const capacity = { objective: parsed.objective.text, minRatePerSec, maxRatePerSec, stepSec: Number(options.stepSec) }
  return { ...commonSettings(options, engine), capacity }
}

/**
 * The search's settings of a run, as its load records them.
 * @param {import('../../records/result-record.js').LoadSettings} load
 * @returns {Omit<CapacitySearchSettings, 'objective'> & { objective: import('./objective.js').Objective }}
 */
export function capacitySettingsOf (load) {
  const capacity = load.capacity
  if (!capacity) throw new Error('a capacity run\'s load settings need `capacity`')
  const parsed = parseObjective(capacity.objective)
  if ('problem' in parsed) throw new Error(`a capacity run's objective does not parse: ${parsed.problem}`)
  return { ...capacity, objective: parsed.objective }
}

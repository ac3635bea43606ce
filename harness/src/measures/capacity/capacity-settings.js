// @ts-check
// A capacity run's settings: the run's load (its closed-loop ceiling takes the warm-up, duration and connections of the run) and the
// search's own, checked once against each other and against the engine before anything starts, each refusal naming the option.
import { engineProblem } from '../../load/engines/index.js'
import { openFilesLimit } from '../../platform/resources/open-files-limit.js'
import { formatInteger } from '../../platform/text/format.js'
import { commonSettings, invalidSetting } from '../load-settings.js'
import { OBJECTIVE_ALLOWED, parseObjective } from './objective.js'

/**
 * @typedef {{ objective: string, minRatePerSec: number, maxRatePerSec: number | null, stepSec: number, sweepConnections?: number[] }}
 *   CapacitySearchSettings as a result's `load.capacity` records them (`sweepConnections` absent in results written before the sweep,
 *   and in those of runs that asked for none)
 */

/** @typedef {import('../../load/engines/engine.js').Engine} Engine */

/**
 * Files the SUT or the engine holds open besides its connections (its own files, the listening socket, the pipes to dyno), kept free of
 * the limit when the highest level is checked against it.
 */
const FILES_BESIDES_CONNECTIONS = 256

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
  // Measured from the fewest connections up, whatever the order given: each level loads the SUT more than the last.
  const sweepConnections = [...(options.sweepConnections ?? [])].sort((a, b) => a - b)
  checkSweepAgainstEngine(sweepConnections, engine, { durationSec, warmupSec, settings })
  checkOpenFilesLimit(sweepConnections, openFilesLimit())
  /** @type {CapacitySearchSettings} */
  const capacity = {
    objective: parsed.objective.text,
    minRatePerSec,
    maxRatePerSec,
    stepSec: Number(options.stepSec),
    ...(sweepConnections.length > 0 ? { sweepConnections: [...sweepConnections] } : {})
  }
  return { ...commonSettings(options, engine), capacity }
}

/**
 * Each sweep level is a closed loop at its connections: the engine must run it.
 * @param {number[]} levels @param {Engine} engine
 * @param {{ durationSec: number, warmupSec: number, settings: ReturnType<Engine['settingsOf']> }} load
 */
function checkSweepAgainstEngine (levels, engine, { durationSec, warmupSec, settings }) {
  for (const connections of levels) {
    const problem = engineProblem(engine, { connections: [connections], durationSec, warmupSec, ratePerSec: null, settings })
    if (problem) {
      throw invalidSetting(`\`--sweep-connections ${levels.join(',')}\` at ${formatInteger(connections)} connections: ${problem}`)
    }
  }
}

/**
 * The SUT and the engine each hold one socket per connection of the highest level: a limit below that would turn the sweep into a
 * measure of the limit. Node raises its soft limit to the hard one as it starts (as Go's runtime does), so dyno, the engines it starts
 * and every SUT hold up to the hard limit: that is the one checked, before anything starts, naming it.
 * @param {number[]} levels @param {{ soft: number, hard: number } | null} limit this process's
 */
export function checkOpenFilesLimit (levels, limit) {
  if (levels.length === 0 || limit === null) return
  const highest = Math.max(...levels)
  const needed = highest + FILES_BESIDES_CONNECTIONS
  if (needed <= limit.hard) return
  throw invalidSetting(`\`--sweep-connections\` reaches ${formatInteger(highest)} connections, but a process here may hold at most ` +
    `${formatInteger(limit.hard)} open files (the hard limit, \`ulimit -Hn\`) and needs ${formatInteger(needed)} for them: raise the ` +
    'hard limit (root, or /etc/security/limits.conf), or give levels up to ' +
    `${formatInteger(Math.max(0, limit.hard - FILES_BESIDES_CONNECTIONS))}`)
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

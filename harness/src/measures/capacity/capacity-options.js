// @ts-check
// The options of the capacity measure: the latency objective, the lowest offered rate and the most that is searched, and how long each
// open-model step is measured. `dyno run --measure capacity`, `dyno capacity` and every command that runs a measure take them.
import { invalidOption, positiveNumber, seconds, wholeNumberList, withDomain } from '../../platform/options/option-parsers.js'
import { MIN_RATE_PER_SEC } from '../../load/load-plan.js'
import { DEFAULT_OBJECTIVE_TEXT, OBJECTIVE_ALLOWED, parseObjective } from './objective.js'

/** @typedef {import('../../platform/options/option-spec.js').OptionSpec} OptionSpec */

/** The lowest offered rate when none is given: a rate every SUT here holds, so that capacity 0 says something. */
export const DEFAULT_MIN_RATE_PER_SEC = 100

/** The measured seconds of each open-model step when none is given. */
export const DEFAULT_STEP_SEC = 1

/** `--slo`: the objective as typed, checked here and kept as given, its spaces dropped and in lower case (`p50<=2ms,p99<=10ms`). */
export const objectiveText = withDomain((/** @type {unknown} */ raw, /** @type {string} */ flag) => {
  const parsed = parseObjective(String(raw))
  if ('problem' in parsed) throw invalidOption(flag, raw, `${OBJECTIVE_ALLOWED} (${parsed.problem})`)
  return parsed.objective.text
}, { kind: 'objective' })

/** @type {OptionSpec} */
export const SLO_OPTION = {
  field: 'objective',
  flag: '--slo <terms>',
  description: 'With --measure capacity: the latency objective a held rate meets, timed from each intended send time: terms ' +
    '`p<percentile><=<bound><unit>`, comma-separated (`p50<=2ms,p99<=10ms`), the percentile above 0 and below 100, the bound from 1 us ' +
    'to 60 s, both in plain decimals; recorded as given',
  parse: objectiveText,
  default: DEFAULT_OBJECTIVE_TEXT
}

/** @type {OptionSpec} */
export const MIN_RATE_OPTION = {
  field: 'minRatePerSec',
  flag: '--min-rate <n>',
  description: 'With --measure capacity: the lowest offered rate (req/s); a SUT that cannot hold it has capacity 0, with the reason',
  parse: positiveNumber({ min: MIN_RATE_PER_SEC, max: 1_000_000 }),
  default: DEFAULT_MIN_RATE_PER_SEC
}

/** @type {OptionSpec} */
export const MAX_RATE_OPTION = {
  field: 'maxRatePerSec',
  flag: '--max-rate <n>',
  description: 'With --measure capacity: the highest offered rate searched (req/s); at least --min-rate',
  parse: positiveNumber({ min: MIN_RATE_PER_SEC, max: 1_000_000 }),
  default: null,
  defaultText: "each cell's closed-loop ceiling"
}

/** @type {OptionSpec} */
export const STEP_OPTION = {
  field: 'stepSec',
  flag: '--step <s>',
  description: 'With --measure capacity: the measured seconds of each open-model step (each after a warm-up of half as long at its rate)',
  parse: seconds({ min: 0.2, max: 60 }),
  default: DEFAULT_STEP_SEC
}

/**
 * The closed-loop connection levels measured after the search when none are given: from a few clients to the thousands at which
 * published comparisons of these frameworks see errors begin, each ten times the last.
 */
export const DEFAULT_SWEEP_CONNECTIONS = Object.freeze([10, 100, 1000, 10_000])

/** The most connections a level may hold open, as `--connections` allows. */
export const MAX_SWEEP_CONNECTIONS = 10_000

const levels = wholeNumberList({ min: 1, max: MAX_SWEEP_CONNECTIONS })

/** `--sweep-connections`: the levels, or `none` for no sweep. */
export const sweepLevels = withDomain((/** @type {unknown} */ raw, /** @type {string} */ flag) => {
  if (String(raw).trim() === 'none') return []
  try {
    return levels(raw, flag)
  } catch {
    throw invalidOption(flag, raw, `a whole number from 1 to ${MAX_SWEEP_CONNECTIONS}, or a comma-separated list of them, or \`none\``)
  }
}, levels.domain)

/** @type {OptionSpec} */
export const SWEEP_CONNECTIONS_OPTION = {
  field: 'sweepConnections',
  flag: '--sweep-connections <list>',
  description: 'With --measure capacity: closed-loop connection levels measured after the search (each for --step s after half as ' +
    'long to warm), to show where errors, timeouts or refused connections begin and how p99 grows; `none`: no sweep',
  parse: sweepLevels,
  default: DEFAULT_SWEEP_CONNECTIONS,
  defaultText: DEFAULT_SWEEP_CONNECTIONS.join(',')
}

/** Every option of the measure, in help order. */
export const CAPACITY_OPTIONS = Object.freeze([SLO_OPTION, MIN_RATE_OPTION, MAX_RATE_OPTION, STEP_OPTION, SWEEP_CONNECTIONS_OPTION])

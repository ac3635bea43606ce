// @ts-check
// What watches a run and where it writes: the look at the machine before it, the share of cpus others may take, the results and the cache,
// and how long a SUT may take to start.
import { DEFAULTS } from '../../platform/defaults.js'
import { flag, oneOf, outputDirectory, percentage, seconds, wholeNumber } from '../../platform/options/option-parsers.js'
import { DISTURBED_SHARE_PCT } from '../../judging/disturbance.js'

/** @typedef {import('../../platform/options/option-spec.js').OptionSpec} OptionSpec */

/** @type {OptionSpec} */
export const QUIET_CHECK = {
  field: 'quietCheck',
  partOfPlan: false,
  flag: '--quiet-check <on|off>',
  description: 'Before measuring, look at the machine for a second and name the other processes that use the cpus the run will use ' +
    '(the look is recorded in run.json); off: skip it',
  parse: oneOf(['on', 'off']),
  default: 'on'
}

/** @type {OptionSpec} */
export const CENSUS_ARGS = {
  field: 'censusArgs',
  partOfPlan: false,
  flag: '--census-args <on|off>',
  description: 'Name the other processes the machine census finds (before measuring, and in every disturbed cell) by their command ' +
    'lines too, masked as far as a list of secret forms goes, in run.json, every result, report and the terminal. UNSAFE TO SHARE: ' +
    'another program\'s arguments may hold what no mask knows. off: pid, executable name, user (when not yours) and cpu share only',
  parse: oneOf(['on', 'off']),
  default: 'off'
}

/** @type {OptionSpec} */
export const DISTURBED_ABOVE = {
  field: 'disturbedAbovePct',
  partOfPlan: false,
  flag: '--disturbed-above <percent>',
  description: 'A cell is disturbed when other processes and the hypervisor took more than this share of the SUT\'s or the ' +
    'generator\'s cpus while it was measured: it is measured again (bounded), and marked if it is still disturbed',
  parse: percentage({ min: 0, max: 100, exclusive: true }),
  default: DISTURBED_SHARE_PCT
}

/** @type {OptionSpec} */
export const VERBOSE = {
  field: 'verbose',
  partOfPlan: false,
  flag: '--verbose',
  description: 'Print everything report.md holds too: a line per result as it is written, the table of every round, each scenario\'s ' +
    'rank table with its notes, and every result behind each warning (without it: the one live line while running, then the overview ' +
    'and one line per warning)',
  parse: flag,
  default: false
}

/** @type {OptionSpec} */
export const OUT = {
  field: 'out',
  partOfPlan: false,
  flag: '--out <dir>',
  description: 'Directory that receives one folder per run',
  parse: outputDirectory,
  default: DEFAULTS.out
}

/** @type {OptionSpec} */
export const CACHE_DIR = {
  field: 'cacheDir',
  partOfPlan: false,
  flag: '--cache-dir <dir>',
  description:
    'Where dyno keeps what it measured once and reuses while it holds: the engine calibration of this machine, the spread of its ' +
    'cells, and instruction counts (reused where the harness code of the count, SUT sources, lockfile, runtime, settings and scenario ' +
    'are the same)',
  parse: outputDirectory,
  default: DEFAULTS.cacheDir,
  defaultText: '$DYNO_CACHE_DIR, else $XDG_CACHE_HOME/dyno or ~/.cache/dyno'
}

/** @type {OptionSpec} */
export const READY_TIMEOUT = {
  field: 'readyTimeoutSec',
  partOfPlan: false,
  flag: '--ready-timeout <sec>',
  description: 'Seconds a SUT may take to print its ready line',
  parse: seconds({ min: 0, max: 600, minExclusive: true }),
  default: DEFAULTS.readyTimeoutSec
}

/** @type {OptionSpec} */
export const PG_POOL_SIZE = {
  field: 'pgPoolSize',
  flag: '--pg-pool-size <n>',
  description: 'Connections in each PostgreSQL pool of a SUT (pg and postgres.js)',
  parse: wholeNumber({ min: 1, max: 1000 }),
  default: DEFAULTS.pgPoolSize
}

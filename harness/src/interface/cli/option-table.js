// @ts-check
// The options the commands share, as lists a command takes whole: `dyno run`'s, which compare-commits, compare-versions, timeline and
// bisect take in part. Each spec is in interface/options/ by what it is about, an engine's own in its folder, a measure's own in its
// folder; the command line is parsed, checked, defaulted, helped and documented from these alone (parse-command-line.js, help-text.js,
// docs/).
import { ENGINES } from '../../load/engines/index.js'
import { MEASURES } from '../../measures/index.js'
import { LOAD_HOSTS, PIN, SUT_CPUS, SUT_HOST } from '../options/host-options.js'
import {
  CONNECTIONS, DURATION, ENGINE, MEASURE, PIPELINING, PROFILE, RATE, RUNTIME_EVENTS, STREAMS, WARMUP, WINDOW, LAUNCH_WARMUP
} from '../options/load-options.js'
import {
  CACHE_DIR, CENSUS_ARGS, DISTURBED_ABOVE, OUT, PG_POOL_SIZE, QUIET_CHECK, READY_TIMEOUT, VERBOSE
} from '../options/output-options.js'
import { FRESH_SUT, NO_VERIFY, PLAN_ONLY, RANK_BY, REPEATS, SEED, SHARD } from '../options/plan-options.js'
import { APP, FRAMEWORKS_WITH_VARIANTS, RUNTIME, SCENARIOS_OPTION, WORKERS } from '../options/subject-options.js'

/** @typedef {import('../../platform/options/option-spec.js').OptionSpec} OptionSpec */

/** The engines' own options (`--wrk-threads`), each engine's in its folder: every command that runs an engine takes them. */
export const ENGINE_OPTIONS = Object.freeze(ENGINES.flatMap((engine) => engine.options))
/** The measures' own options (`--count-warmup`), each measure's in its folder: every command that runs a measure takes them. */
export const MEASURE_OPTIONS = Object.freeze(MEASURES.flatMap((measure) => measure.options))

/** The options of `dyno run`, in help order. */
export const RUN_OPTIONS = Object.freeze([
  APP,
  FRAMEWORKS_WITH_VARIANTS,
  SCENARIOS_OPTION,
  RUNTIME,
  WORKERS,
  PROFILE,
  CONNECTIONS,
  DURATION,
  WARMUP,
  LAUNCH_WARMUP,
  PIPELINING,
  STREAMS,
  RATE,
  ENGINE,
  ...ENGINE_OPTIONS,
  MEASURE,
  ...MEASURE_OPTIONS,
  SUT_HOST,
  LOAD_HOSTS,
  PIN,
  SUT_CPUS,
  REPEATS,
  RANK_BY,
  SHARD,
  PLAN_ONLY,
  SEED,
  QUIET_CHECK,
  CENSUS_ARGS,
  DISTURBED_ABOVE,
  OUT,
  CACHE_DIR,
  FRESH_SUT,
  READY_TIMEOUT,
  PG_POOL_SIZE,
  WINDOW,
  RUNTIME_EVENTS,
  NO_VERIFY,
  VERBOSE
])

/** The measures a comparison may default to, most preferred first. */
const GATES = [...MEASURES].sort((a, b) => a.comparison.gate.preference - b.comparison.gate.preference)
/** @returns {import('../../measures/measure.js').Measure} the most preferred measure that can measure here */
const gateHere = () => GATES.find((measure) => measure.comparison.gate.unavailableHere() === null) ?? GATES[GATES.length - 1]

/**
 * `--measure` of the comparison commands: a comparison is a regression gate, and measures by the most preferred measure that can measure
 * here (instructions where valgrind can count them), saying so when it falls back.
 * @type {OptionSpec}
 */
export const COMPARISON_MEASURE = {
  ...MEASURE,
  derive: () => gateHere().name,
  defaultText:
    `${GATES[0].name} where ${GATES[0].comparison.gate.when}; else ${GATES.slice(1)
      .map((measure) => measure.name)
      .join(', ')}, ` + 'and a line says why',
  notice: () => (gateHere() === GATES[0] ? null : GATES[0].comparison.gate.unavailableHere())
}

// @ts-check
import { DEFAULTS } from '../defaults.js'
import { INSTRUCTION_COUNT_DEFAULTS } from '../instructions/count-instructions.js'
import { LOAD_PROFILES, DEFAULT_PROFILE } from '@dyno/scenarios'
import { DEFAULT_PIN, pinOption } from '../pinning/pin-option.js'
import { DEFAULT_RUNTIME, RUNTIME_NAMES } from '../runtimes/runtime-targets.js'
import {
  outputDirectory, flag, frameworkList, scenarioList, runtimeList, oneOf, percentage, positiveNumber, seconds, subsetOf, wholeNumber, wholeNumberList
} from './option-parsers.js'
import { COMPARE_DEFAULTS, COMPARE_FORMATS, FAIL_ON_CONDITIONS } from '../compare/compare-defaults.js'
import { pairsNeeded } from '../compare/wilcoxon-signed-rank.js'
import { CALIBRATION_DEFAULTS, CALIBRATION_SUTS } from '../commands/calibrate-command.js'

/**
 * The options of every command, in one table: cac registers them from here (so `--help` is generated
 * from it) and `parseOptions` validates with the parser named here, so help and behaviour never drift.
 * `field` names the validated value, with its unit (`durationSec`).
 * @typedef {object} OptionSpec
 * @property {string} field
 * @property {string} flag as cac wants it, e.g. `--connections <n>`
 * @property {string} description
 * @property {import('./option-parsers.js').OptionParser} parse
 * @property {unknown} [default] shown in help and used when the option is absent
 */

/** @type {Record<string, OptionSpec>} */
const OPTIONS = {
  runtime: {
    field: 'runtimes',
    flag: '--runtime <names>',
    description: `JS runtimes to run each Node-compatible SUT on, comma-separated, side by side: ${RUNTIME_NAMES.join(', ')} ` +
      `(default: ${DEFAULT_RUNTIME}, the Node running dyno)`,
    parse: runtimeList
  },
  workers: {
    field: 'workers',
    flag: '--workers <n>',
    description: 'Server worker processes for SUTs that support them (gunicorn, uvicorn, Go GOMAXPROCS); others are skipped when n > 1',
    parse: wholeNumber({ min: 1, max: 64 }),
    default: DEFAULTS.workers
  },
  frameworks: {
    field: 'frameworks',
    flag: '--frameworks <names>',
    description: 'SUTs to run, comma-separated (default: all; see `dyno list`)',
    parse: frameworkList
  },
  scenarios: {
    field: 'scenarios',
    flag: '--scenarios <names>',
    description: "Scenarios to run, comma-separated (default: the profile's; see `dyno list`)",
    parse: scenarioList
  },
  connections: {
    field: 'connections',
    flag: '--connections <n>',
    description: "Concurrent connections the load generator keeps open; a list (10,100,1000) sweeps the levels (default: the profile's)",
    parse: wholeNumberList({ min: 1, max: 10_000 })
  },
  pipelining: {
    field: 'pipelining',
    flag: '--pipelining <n>',
    description: "Requests in flight per connection (HTTP pipelining) (default: the profile's)",
    parse: wholeNumber({ min: 1, max: 100 })
  },
  duration: {
    field: 'durationSec',
    flag: '--duration <sec>',
    description: "Seconds of measured load per SUT and scenario (default: the profile's)",
    parse: seconds({ min: 0, max: 3600, minExclusive: true })
  },
  warmup: {
    field: 'warmupSec',
    flag: '--warmup <sec>',
    description: "Seconds of warmup load before measuring, recorded apart; 0: none (default: the profile's)",
    parse: seconds({ min: 0, max: 3600 })
  },
  rate: {
    field: 'ratePerSec',
    flag: '--rate <n>',
    description: 'Open model: send this many requests per second on a fixed schedule and measure latency from each intended send time (default: closed loop)',
    parse: positiveNumber({ max: 1_000_000 })
  },
  engine: {
    field: 'engine',
    flag: '--engine <name>',
    description: 'Load generator: autocannon; wrk (C; needs wrk on PATH, whole seconds, no timeseries); or native (Rust, built by pnpm install: ' +
      'one thread per generator cpu, closed loop or --rate, every response checked, windows)',
    parse: oneOf(['autocannon', 'wrk', 'native']),
    default: 'autocannon'
  },
  wrkThreads: {
    field: 'wrkThreads',
    flag: '--wrk-threads <n>',
    description: 'wrk threads (-t); must divide the connections',
    parse: wholeNumber({ min: 1, max: 64 }),
    default: DEFAULTS.wrkThreads
  },
  measure: {
    field: 'measure',
    flag: '--measure <what>',
    description: 'wall-clock (req/s and latency under load) or instructions (instructions per request under valgrind\'s callgrind: ' +
      '--count-warmup requests uncounted, then --count-windows windows of --count-requests requests, each counted; for regressions on noisy machines)',
    parse: oneOf(['wall-clock', 'instructions']),
    default: 'wall-clock'
  },
  countWarmup: {
    field: 'countWarmupRequests',
    flag: '--count-warmup <n>',
    description: 'With --measure instructions: requests answered, uncounted, before the counted windows (start-up, JIT)',
    parse: wholeNumber({ min: 0, max: 1_000_000 }),
    default: INSTRUCTION_COUNT_DEFAULTS.warmupRequests
  },
  countRequests: {
    field: 'countWindowRequests',
    flag: '--count-requests <n>',
    description: 'With --measure instructions: the requests of each counted window',
    parse: wholeNumber({ min: 1, max: 1_000_000 }),
    default: INSTRUCTION_COUNT_DEFAULTS.windowRequests
  },
  countWindows: {
    field: 'countWindows',
    flag: '--count-windows <n>',
    description: 'With --measure instructions: how many windows are counted, one after another; dyno compare pairs them window by window',
    parse: wholeNumber({ min: 1, max: 1000 }),
    default: INSTRUCTION_COUNT_DEFAULTS.windows
  },
  calibrateFrameworks: {
    field: 'frameworks',
    flag: '--frameworks <names>',
    description: `SUTs to calibrate against (default: ${CALIBRATION_SUTS.join(',')})`,
    parse: frameworkList
  },
  calibrateDuration: {
    field: 'durationSec',
    flag: '--duration <sec>',
    description: 'Whole seconds each engine measures',
    parse: wholeNumber({ min: 1, max: 600 }),
    default: CALIBRATION_DEFAULTS.durationSec
  },
  calibrateWarmup: {
    field: 'warmupSec',
    flag: '--warmup <sec>',
    description: 'Whole seconds of warmup per engine (0: none)',
    parse: wholeNumber({ min: 0, max: 600 }),
    default: CALIBRATION_DEFAULTS.warmupSec
  },
  sutCpus: {
    field: 'sutCpus',
    flag: '--sut-cpus <n>',
    description: 'CPUs the SUT gets under --pin auto, whatever the machine\'s size (default: one per server worker, --workers); ' +
      'the generator gets every other cpu',
    parse: wholeNumber({ min: 1, max: 1024 })
  },
  pin: {
    field: 'pin',
    flag: '--pin <mode>',
    description: 'CPU pinning with taskset: auto (Linux, 2 cpus or more: the SUT on the first --sut-cpus cpus, the load generator on every other; ' +
      'otherwise off, with the reason), off, or sut=<cpus>,gen=<cpus> (e.g. sut=0-2,gen=3); recorded in load.pinning',
    parse: pinOption,
    default: DEFAULT_PIN
  },
  profile: {
    field: 'profile',
    flag: '--profile <name>',
    description: `Named load profile: ${Object.keys(LOAD_PROFILES).join(', ')}; explicit options override it`,
    parse: oneOf(Object.keys(LOAD_PROFILES)),
    default: DEFAULT_PROFILE
  },
  repeats: {
    field: 'repeats',
    flag: '--repeats <n>',
    description: "Measure each (SUT, scenario, connections) this many times, interleaved in shuffled rounds (default: the profile's)",
    parse: wholeNumber({ min: 1, max: 1000 })
  },
  seed: {
    field: 'seed',
    flag: '--seed <n>',
    description: 'Seed of the shuffled order and the bootstrap (default: random, recorded in run.json)',
    parse: wholeNumber({ min: 0, max: 4_294_967_295 })
  },
  out: {
    field: 'out',
    flag: '--out <dir>',
    description: 'Directory that receives one folder per run',
    parse: outputDirectory,
    default: DEFAULTS.out
  },
  readyTimeout: {
    field: 'readyTimeoutSec',
    flag: '--ready-timeout <sec>',
    description: 'Seconds a SUT may take to print its ready line',
    parse: seconds({ min: 0, max: 600, minExclusive: true }),
    default: DEFAULTS.readyTimeoutSec
  },
  pgPoolSize: {
    field: 'pgPoolSize',
    flag: '--pg-pool-size <n>',
    description: 'Connections in each PostgreSQL pool of a SUT (pg and postgres.js)',
    parse: wholeNumber({ min: 1, max: 1000 }),
    default: DEFAULTS.pgPoolSize
  },
  window: {
    field: 'windowMs',
    flag: '--window-ms <ms>',
    description: 'Width of the latency-over-time windows (timeseries) in milliseconds',
    parse: wholeNumber({ min: 50, max: 60_000 }),
    default: DEFAULTS.windowMs
  },
  noVerify: {
    field: 'verify',
    flag: '--no-verify',
    description: 'Measure without checking the responses first (the result says so)',
    parse: flag,
    default: DEFAULTS.verify
  },
  compareFormat: {
    field: 'format',
    flag: '--format <name>',
    description: 'Output: table (terminal), md (markdown), json, bmf (Bencher Metric Format), ' +
      'gab (github-action-benchmark customBiggerIsBetter: req/s), gab-p99 (customSmallerIsBetter: p99 ms)',
    parse: oneOf(COMPARE_FORMATS),
    default: COMPARE_DEFAULTS.format
  },
  threshold: {
    field: 'thresholdPercent',
    flag: '--threshold <percent>',
    description: `Smallest significant change that counts as improved or regressed, in percent (default: ${COMPARE_DEFAULTS.thresholdPercent} for req/s, ` +
      `${COMPARE_DEFAULTS.instructionThresholdPercent} for instructions per request)`,
    parse: percentage({ min: 0, max: 100 })
  },
  paired: {
    field: 'paired',
    flag: '--paired',
    description: 'The sides were run in alternating rounds, as compare-commits runs them: ' +
      'pair each cell\'s runs in the order they started and test the per-round ratios ' +
      `(Wilcoxon signed-rank, from ${pairsNeeded(COMPARE_DEFAULTS.alpha)} pairs; ` +
      'with fewer, or unequal counts, the row falls back to Mann–Whitney U and says so)',
    parse: flag,
    default: false
  },
  failOn: {
    field: 'failOn',
    flag: '--fail-on <conditions>',
    description: 'Exit 1 on: regression (a significant regression beyond the threshold), ' +
      'not-comparable (a row that could not be compared), or both, comma-separated',
    parse: subsetOf(FAIL_ON_CONDITIONS)
  }
}

/**
 * The options of `dyno run`, in help order. compare-commits takes the same ones for both commits' rounds, all but
 * --seed: each round's `dyno run` draws its own (a round is one run a side, so there is no order to shuffle).
 */
const RUN_OPTIONS = [OPTIONS.frameworks, OPTIONS.scenarios, OPTIONS.runtime, OPTIONS.workers, OPTIONS.profile, OPTIONS.connections, OPTIONS.duration,
  OPTIONS.warmup, OPTIONS.pipelining, OPTIONS.rate, OPTIONS.engine, OPTIONS.wrkThreads, OPTIONS.measure, OPTIONS.countWarmup, OPTIONS.countRequests,
  OPTIONS.countWindows, OPTIONS.pin, OPTIONS.sutCpus, OPTIONS.repeats, OPTIONS.seed, OPTIONS.out, OPTIONS.readyTimeout, OPTIONS.pgPoolSize, OPTIONS.window,
  OPTIONS.noVerify]

/** The options of each command, by command name. */
export const COMMAND_OPTIONS = Object.freeze({
  run: RUN_OPTIONS,
  verify: [OPTIONS.frameworks, OPTIONS.scenarios, OPTIONS.runtime, OPTIONS.workers, OPTIONS.readyTimeout],
  calibrate: [
    OPTIONS.calibrateFrameworks, OPTIONS.connections, OPTIONS.calibrateDuration, OPTIONS.calibrateWarmup,
    OPTIONS.wrkThreads, OPTIONS.pin, OPTIONS.sutCpus, OPTIONS.readyTimeout
  ],
  report: [],
  compare: [OPTIONS.compareFormat, OPTIONS.threshold, OPTIONS.paired, OPTIONS.failOn],
  // The run options of both commits' rounds (--repeats: rounds; default profile: ci), then how to compare.
  'compare-commits': [...RUN_OPTIONS.filter((spec) => spec !== OPTIONS.seed), OPTIONS.compareFormat, OPTIONS.threshold, OPTIONS.failOn],
  list: []
})

/** @param {OptionSpec} spec @returns {string} the flag as typed, e.g. `--ready-timeout` */
export function flagName (spec) {
  return spec.flag.split(' ')[0]
}

/** @param {OptionSpec} spec @returns {string} the name cac gives the parsed option, e.g. `readyTimeout` */
export function cacKey (spec) {
  return flagName(spec).replace(/^--(no-)?/, '').replace(/-([a-z])/g, (_, letter) => letter.toUpperCase())
}

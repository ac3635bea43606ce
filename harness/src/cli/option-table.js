// @ts-check
import { randomInt } from 'node:crypto'
import { join } from 'node:path'
import { LOAD_PROFILES, DEFAULT_PROFILE, DEFAULT_LOAD, SCENARIOS } from '@dyno/scenarios'
import { DEFAULTS } from '../defaults.js'
import { createRunId } from '../results/run-id.js'
import { findCallgrind } from '../counts/callgrind.js'
import { INSTRUCTION_COUNT_DEFAULTS } from '../counts/count-instructions.js'
import { ENGINES, ENGINE_NAMES } from '../load/engines/index.js'
import { machineCpus } from '../pinning/cpu-list.js'
import { DEFAULT_PIN } from '../pinning/parse-pin.js'
import { DEFAULT_RUNTIME, RUNTIME_NAMES } from '../runtimes/runtime-targets.js'
import {
  inputDirectory, outputDirectory, flag, frameworkEntryList, frameworkList, frameworkRangeList, scenarioList, runtimeList, oneOf, percentage, pinOption,
  positiveNumber, seconds,
  shardSpec, hostTarget, hostList,
  subsetOf, wholeNumber,
  wholeNumberList
} from './option-parsers.js'
import { COMPARE_DEFAULTS, COMPARE_FORMATS, FAIL_ON_CONDITIONS } from '../compare/compare-defaults.js'
import { pairsNeeded } from '../stats/wilcoxon-signed-rank.js'
import { CALIBRATION_DEFAULTS, CALIBRATION_SUTS } from '../commands/calibrate-command.js'
import { COMPARE_COMMITS_DEFAULTS } from '../commands/compare-commits-command.js'
import { discoverSuts } from '../suts/discover-suts.js'
import { DISTURBED_SHARE_PCT } from '../judging/disturbance.js'
import { DEFAULT_RELEASE_RULE, RELEASE_RULES } from '../timeline/release-rules.js'

/**
 * The options of every command, in one table. The command line is parsed from it (parse-command-line.js), `--help`
 * and docs/cli.md are written from it, and the defaults are applied from it, once, when the command line is parsed:
 * no later layer supplies a default of its own.
 * @typedef {object} OptionSpec
 * @property {string} field the name of the parsed value, with its unit (`durationSec`)
 * @property {string} flag as help shows it: `--connections <n>`, or `--paired` for one that takes no value
 * @property {string} description
 * @property {import('./option-parsers.js').OptionParser} parse judges the text as typed
 * @property {unknown} [default] the value when the option is not given
 * @property {(values: Record<string, any>) => unknown} [derive] the value when the option is not given, worked out from the values
 *   of the options before it (a profile's figure, the cpus of the workers)
 * @property {string} [defaultText] how help writes a default that is derived or not a plain value
 * @property {(values: Record<string, any>) => string | null} [notice] when the option is not given: the line the command prints to say
 *   why its default here is not the one it has where all is installed, or null
 * @property {false} [partOfPlan] it changes where or how fast a plan is carried out, or how its result is judged and shown, never what
 *   it measures: the parts of one plan (`--shard`) may differ in it, and it is not in the plan's identity
 */

/** The seed of a sharded run when none is given: each part computes the plan alone, and all must draw the same. */
const SHARDED_SEED = 1

/** @param {Record<string, any>} values @returns {import('@dyno/scenarios').LoadProfile} the profile the values name */
const profileOf = (values) => LOAD_PROFILES[/** @type {keyof typeof LOAD_PROFILES} */ (values.profile)]
const ALL_SCENARIOS = SCENARIOS.map((scenario) => scenario.name)

/** @type {Record<string, OptionSpec>} */
const OPTIONS = {
  frameworks: {
    field: 'frameworks',
    flag: '--frameworks <names>',
    description: 'SUTs to run, comma-separated (see `dyno list`)',
    parse: frameworkList,
    derive: () => discoverSuts().map((sut) => sut.name),
    defaultText: 'all'
  },
  frameworksWithVariants: {
    field: 'frameworks',
    flag: '--frameworks <names>',
    description: 'SUTs to run, comma-separated (see `dyno list`); `name@version`, `name@range`, `name@dist-tag` or `name@path:<dir>` runs the SUT ' +
      'on that version of its framework, or on a checkout of it, as a row of its own (`express@4.21.2,express@5.3.0`), each installed into a ' +
      'cached copy of the SUT package in --cache-dir',
    parse: frameworkEntryList,
    derive: () => discoverSuts().map((sut) => sut.name),
    defaultText: 'all'
  },
  scenarios: {
    field: 'scenarios',
    flag: '--scenarios <names>',
    description: 'Scenarios to run, comma-separated (see `dyno list`)',
    parse: scenarioList,
    derive: (values) => profileOf(values).scenarios ?? ALL_SCENARIOS,
    defaultText: "the profile's"
  },
  runtime: {
    field: 'runtimes',
    flag: '--runtime <names>',
    description: `JS runtimes to run each Node-compatible SUT on, comma-separated, side by side: ${RUNTIME_NAMES.join(', ')} ` +
      `(${DEFAULT_RUNTIME}: the Node running dyno)`,
    parse: runtimeList,
    default: [DEFAULT_RUNTIME]
  },
  workers: {
    field: 'workers',
    flag: '--workers <n>',
    description: 'Server worker processes for SUTs that support them (gunicorn, uvicorn, Go GOMAXPROCS); others are skipped when n > 1',
    parse: wholeNumber({ min: 1, max: 64 }),
    default: DEFAULTS.workers
  },
  profile: {
    field: 'profile',
    flag: '--profile <name>',
    description: `Named load profile: ${Object.keys(LOAD_PROFILES).join(', ')}; explicit options override it`,
    parse: oneOf(Object.keys(LOAD_PROFILES)),
    default: DEFAULT_PROFILE
  },
  connections: {
    field: 'connections',
    flag: '--connections <n>',
    description: 'Concurrent connections the load generator keeps open; a list (10,100,1000) sweeps the levels',
    parse: wholeNumberList({ min: 1, max: 10_000 }),
    derive: (values) => profileOf(values).connections,
    defaultText: "the profile's"
  },
  duration: {
    field: 'durationSec',
    flag: '--duration <sec>',
    description: 'Seconds of measured load per SUT and scenario',
    parse: seconds({ min: 0, max: 3600, minExclusive: true }),
    derive: (values) => profileOf(values).durationSec,
    defaultText: "the profile's"
  },
  warmup: {
    field: 'warmupSec',
    flag: '--warmup <sec>',
    description: 'Seconds of warmup load before measuring, recorded apart; 0: none',
    parse: seconds({ min: 0, max: 3600 }),
    derive: (values) => profileOf(values).warmupSec,
    defaultText: "the profile's"
  },
  pipelining: {
    field: 'pipelining',
    flag: '--pipelining <n>',
    description: 'Requests in flight per connection (HTTP pipelining)',
    parse: wholeNumber({ min: 1, max: 100 }),
    derive: (values) => profileOf(values).pipelining,
    defaultText: "the profile's"
  },
  rate: {
    field: 'ratePerSec',
    flag: '--rate <n>',
    description: 'Open model: send this many requests per second on a fixed schedule and measure latency from each intended send time',
    parse: positiveNumber({ max: 1_000_000 }),
    default: null,
    defaultText: 'closed loop'
  },
  engine: {
    field: 'engine',
    flag: '--engine <name>',
    description: 'Load generator of the whole run: auto (autocannon where it keeps up with the fastest SUT on this machine, else the native ' +
      `engine; measured once per machine, kept in --cache-dir); ${ENGINES.map((engine) => engine.description).join('; or ')}`,
    parse: oneOf(['auto', ...ENGINE_NAMES]),
    derive: (values) => profileOf(values).engine ?? 'auto',
    defaultText: "the profile's: native with sustained, auto otherwise"
  },
  sutHost: {
    field: 'sutHost',
    flag: '--sut-host <url>',
    description: 'Run the SUTs, and the services their scenarios need, on another host reached with your OpenSSH in batch mode ' +
      '(`ssh://[user@]host[:port][/dir]`, dir the checkout `dyno host prepare` made there, `~/dyno` by default); verification and load ' +
      'come from this machine, whose cpus all go to the generator (docs/hosts.md); `local` is this machine, as without the option',
    parse: hostTarget,
    default: null,
    defaultText: 'this machine'
  },
  loadHosts: {
    field: 'loadHosts',
    flag: '--load-hosts <hosts>',
    description: 'With --sut-host and --engine native: run the engine on each of these hosts at once, comma-separated (`local` for this ' +
      'machine, `ssh://…` for a host `dyno host prepare` made ready), each with its share of the connections, all starting together; their ' +
      'counts are merged exactly and the generator-bound guard judges each host',
    parse: hostList,
    default: null,
    defaultText: 'this machine'
  },
  cacheDir: {
    field: 'cacheDir',
    partOfPlan: false,
    flag: '--cache-dir <dir>',
    description: 'Where dyno keeps what it measured once and reuses while it holds: the engine calibration of this machine, and instruction ' +
      'counts (reused where the harness code of the count, SUT sources, lockfile, runtime, settings and scenario are the same)',
    parse: outputDirectory,
    default: DEFAULTS.cacheDir,
    defaultText: '$DYNO_CACHE_DIR, else $XDG_CACHE_HOME/dyno or ~/.cache/dyno'
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
  countJobs: {
    field: 'countJobs',
    partOfPlan: false,
    flag: '--count-jobs <n>',
    description: 'With --measure instructions: counts made at once (each a SUT under valgrind; a count does not depend on what runs beside it)',
    parse: wholeNumber({ min: 1, max: machineCpus().length * 4 }),
    derive: () => machineCpus().length,
    defaultText: 'one per cpu'
  },
  noCountCache: {
    field: 'countCache',
    partOfPlan: false,
    flag: '--no-count-cache',
    description: 'With --measure instructions: count anew even where an identical count (same harness code of the count, SUT sources, ' +
      'lockfile, runtime, settings and scenario) is kept in --cache-dir; two fresh counts of the same code are what an A/A measurement needs',
    parse: flag,
    default: true
  },
  pin: {
    field: 'pin',
    flag: '--pin <mode>',
    description: 'CPU pinning with taskset: auto (Linux, 2 cpus or more: the SUT on the first --sut-cpus cpus, the load generator on every other; ' +
      'otherwise off, with the reason), off, or sut=<cpus>,gen=<cpus> (e.g. sut=0-2,gen=3); recorded in load.pinning',
    parse: pinOption,
    default: DEFAULT_PIN,
    defaultText: 'auto'
  },
  sutCpus: {
    field: 'sutCpus',
    flag: '--sut-cpus <n>',
    description: 'CPUs the SUT gets under --pin auto, whatever the machine\'s size; the generator gets every other cpu',
    parse: wholeNumber({ min: 1, max: 1024 }),
    derive: (values) => values.workers,
    defaultText: 'one per server worker, --workers'
  },
  repeats: {
    field: 'repeats',
    flag: '--repeats <n>',
    description: 'Measure each (SUT, scenario, connections) this many times, interleaved in shuffled rounds',
    parse: wholeNumber({ min: 1, max: 1000 }),
    // A count is the same count in every round: one round of counts, whatever the profile's wall-clock rounds.
    derive: (values) => values.measure === 'instructions' ? 1 : profileOf(values).repeats,
    defaultText: "the profile's; 1 with --measure instructions"
  },
  shard: {
    field: 'shard',
    partOfPlan: false,
    flag: '--shard <K/N>',
    description: 'Carry out part K of N of the plan (every SUT × scenario × connections × runtime × repeat), the parts balanced by ' +
      'expected time, each cell in exactly one; run.json records the plan\'s identity, K and N, and `dyno merge` puts the parts together',
    parse: shardSpec,
    default: null,
    defaultText: 'the whole plan'
  },
  planOnly: {
    field: 'planOnly',
    partOfPlan: false,
    flag: '--plan',
    description: 'Print the plan as JSON (its identity, cells and expected seconds, and each part of --shard\'s N) and measure nothing',
    parse: flag,
    default: false
  },
  seed: {
    field: 'seed',
    flag: '--seed <n>',
    description: 'Seed of the shuffled order and the bootstrap',
    parse: wholeNumber({ min: 0, max: 4_294_967_295 }),
    // Every part of a plan must draw the same order: without a seed given, the parts of `--shard` share a fixed one.
    derive: (values) => values.shard ? SHARDED_SEED : randomInt(2 ** 32 - 1),
    defaultText: `random, recorded in run.json; with --shard, ${SHARDED_SEED}`
  },
  quietCheck: {
    field: 'quietCheck',
    partOfPlan: false,
    flag: '--quiet-check <on|off>',
    description: 'Before measuring, look at the machine for a second and name the other processes that use the cpus the run will use ' +
      '(the look is recorded in run.json); off: skip it',
    parse: oneOf(['on', 'off']),
    default: 'on'
  },
  censusArgs: {
    field: 'censusArgs',
    partOfPlan: false,
    flag: '--census-args <on|off>',
    description: 'Name the other processes the machine census finds (before measuring, and in every disturbed cell) by their command ' +
      'lines too, masked as far as a list of secret forms goes, in run.json, every result, report and the terminal. UNSAFE TO SHARE: ' +
      'another program\'s arguments may hold what no mask knows. off: pid, executable name, user (when not yours) and cpu share only',
    parse: oneOf(['on', 'off']),
    default: 'off'
  },
  disturbedAbove: {
    field: 'disturbedAbovePct',
    partOfPlan: false,
    flag: '--disturbed-above <percent>',
    description: 'A cell is disturbed when other processes and the hypervisor took more than this share of the SUT\'s or the ' +
      'generator\'s cpus while it was measured: it is measured again (bounded), and marked if it is still disturbed',
    parse: percentage({ min: 0, max: 100, exclusive: true }),
    default: DISTURBED_SHARE_PCT
  },
  out: {
    field: 'out',
    partOfPlan: false,
    flag: '--out <dir>',
    description: 'Directory that receives one folder per run',
    parse: outputDirectory,
    default: DEFAULTS.out
  },
  readyTimeout: {
    field: 'readyTimeoutSec',
    partOfPlan: false,
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
  runtimeEvents: {
    field: 'runtimeEvents',
    flag: '--runtime-events <on|off>',
    description: "Collect what each SUT's runtime did in every window: collections by kind and pause, functions optimised by tier and " +
      'deoptimised by reason (Node: the V8 log and perf_hooks; Go: its gctrace), and event-loop delay; the cost is in docs/measuring.md',
    parse: oneOf(['on', 'off']),
    derive: (values) => profileOf(values).runtimeEvents ? 'on' : 'off',
    defaultText: "the profile's: on with sustained, off otherwise"
  },
  mergeOut: {
    field: 'out',
    flag: '--out <dir>',
    description: 'The merged directory: new, or empty',
    parse: outputDirectory,
    derive: () => join(DEFAULTS.out, `${createRunId()}-merged`),
    defaultText: 'a new run directory under results/'
  },
  siteOut: {
    field: 'out',
    flag: '--out <dir>',
    description: 'The site\'s directory: new, empty, or a site dyno wrote before (written again)',
    parse: outputDirectory,
    default: 'site'
  },
  suiteRun: {
    field: 'suiteRun',
    flag: '--suite-run <dir>',
    description: 'A wall-clock run directory whose report becomes the site\'s page of the latest suite run',
    parse: inputDirectory,
    default: null,
    defaultText: 'none'
  },
  allowMixedMachines: {
    field: 'allowMixedMachines',
    flag: '--allow-mixed-machines',
    description: 'Merge wall-clock parts measured on machines that differ (cpu, cores, kernel, Node, engine); every table and chart of ' +
      'the merged run then says they are mixed. Instruction counts merge across machines without it when their runtimes match',
    parse: flag,
    default: false
  },
  freshSut: {
    field: 'freshSut',
    flag: '--fresh-sut',
    description: 'Start the SUT anew for every (scenario, connections) cell, instead of once for the consecutive cells of a SUT ' +
      '(it is started again after a cell that did not end ok either way)',
    parse: flag,
    default: false
  },
  noVerify: {
    field: 'verify',
    flag: '--no-verify',
    description: 'Measure without checking the responses first (the result says so)',
    parse: flag,
    default: true
  },
  compareFormat: {
    field: 'format',
    partOfPlan: false,
    flag: '--format <name>',
    description: 'Output: table (terminal), md (markdown), json, bmf (Bencher Metric Format), ' +
      'gab (github-action-benchmark customBiggerIsBetter: req/s), gab-p99 (customSmallerIsBetter: p99 ms), ' +
      'gab-instructions (customSmallerIsBetter: instructions per request)',
    parse: oneOf(COMPARE_FORMATS),
    default: COMPARE_DEFAULTS.format
  },
  threshold: {
    field: 'thresholdPercent',
    partOfPlan: false,
    flag: '--threshold <percent>',
    description: 'Smallest significant change that counts as improved or regressed, in percent',
    parse: percentage({ min: 0, max: 100 }),
    default: null,
    defaultText: `${COMPARE_DEFAULTS.thresholdPercent} for req/s; for instructions per request, each row's own A/A spread ` +
      `(never below ${COMPARE_DEFAULTS.instructionThresholdFloorPercent})`
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
    partOfPlan: false,
    flag: '--fail-on <conditions>',
    description: 'Exit 1 on: regression (a significant regression beyond the threshold: of req/s, or of a count\'s program ' +
      'instructions, bytes allocated or write/read system calls per request), ' +
      'not-comparable (a row that could not be compared), or both, comma-separated',
    parse: subsetOf(FAIL_ON_CONDITIONS),
    default: [],
    defaultText: 'never'
  }
}

/**
 * @param {OptionSpec} spec @param {unknown} value
 * @returns {OptionSpec} the option with a plain default instead of its own (derived) one
 */
function defaultingTo (spec, value) {
  const { derive, defaultText, ...rest } = spec
  return { ...rest, default: value }
}

/** The options of `dyno run`, in help order. */
const RUN_OPTIONS = [OPTIONS.frameworksWithVariants, OPTIONS.scenarios, OPTIONS.runtime, OPTIONS.workers, OPTIONS.profile, OPTIONS.connections,
  OPTIONS.duration,
  OPTIONS.warmup, OPTIONS.pipelining, OPTIONS.rate, OPTIONS.engine, OPTIONS.wrkThreads, OPTIONS.measure, OPTIONS.countWarmup, OPTIONS.countRequests,
  OPTIONS.countWindows, OPTIONS.countJobs, OPTIONS.noCountCache, OPTIONS.sutHost, OPTIONS.loadHosts, OPTIONS.pin, OPTIONS.sutCpus, OPTIONS.repeats,
  OPTIONS.shard, OPTIONS.planOnly, OPTIONS.seed, OPTIONS.quietCheck, OPTIONS.censusArgs, OPTIONS.disturbedAbove, OPTIONS.out,
  OPTIONS.cacheDir, OPTIONS.freshSut, OPTIONS.readyTimeout, OPTIONS.pgPoolSize, OPTIONS.window, OPTIONS.runtimeEvents, OPTIONS.noVerify]

/**
 * A comparison is a regression gate: it counts instructions, which a busy or drifting machine does not blur, wherever valgrind can
 * count them, and says so when it falls back to wall clock.
 * @type {OptionSpec}
 */
const COMPARE_MEASURE = {
  ...OPTIONS.measure,
  derive: () => findCallgrind() ? 'instructions' : 'wall-clock',
  defaultText: 'instructions where valgrind and vgdb are on PATH; else wall-clock, and a line says why',
  notice: (values) => values.measure === 'instructions'
    ? null
    : 'valgrind is not installed here: comparing by wall clock; apt-get install valgrind to compare instruction counts'
}

/**
 * compare-commits takes the run options for both commits' rounds, all but --seed (each round's `dyno run` draws its own: a round is one
 * run a side, so there is no order to shuffle) and --sut-host (a host's checkout is at one commit), with its own defaults: its profile,
 * and instructions where valgrind can count them, one round on a few scenarios. --measure comes first: the defaults of --scenarios and
 * --repeats are derived from it.
 */
const NOT_FOR_COMPARE_COMMITS = [OPTIONS.seed, OPTIONS.sutHost, OPTIONS.loadHosts]
const COMPARE_COMMITS_RUN_OPTIONS = [
  COMPARE_MEASURE,
  ...RUN_OPTIONS.filter((spec) => spec !== OPTIONS.measure && !NOT_FOR_COMPARE_COMMITS.includes(spec))
].map((spec) => {
  /** @param {Record<string, any>} values */
  const counting = (values) => values.measure === 'instructions'
  // Variants are installed by the harness of each commit's worktree, which may predate them.
  if (spec === OPTIONS.frameworksWithVariants) return OPTIONS.frameworks
  if (spec === OPTIONS.profile) return { ...spec, default: COMPARE_COMMITS_DEFAULTS.profile }
  if (spec === OPTIONS.repeats) {
    return {
      ...spec,
      description: 'Rounds: base and head once each, alternating which goes first',
      derive: (/** @type {Record<string, any>} */ values) => counting(values) ? COMPARE_COMMITS_DEFAULTS.instructionRounds : profileOf(values).repeats,
      defaultText: `the profile's; ${COMPARE_COMMITS_DEFAULTS.instructionRounds} with --measure instructions`
    }
  }
  if (spec === OPTIONS.scenarios) {
    return {
      ...spec,
      derive: (/** @type {Record<string, any>} */ values) =>
        counting(values) ? [...COMPARE_COMMITS_DEFAULTS.instructionScenarios] : profileOf(values).scenarios ?? ALL_SCENARIOS,
      defaultText: `the profile's; ${COMPARE_COMMITS_DEFAULTS.instructionScenarios.join(', ')} with --measure instructions`
    }
  }
  return spec
})

/**
 * compare-versions runs one `dyno run` of both variants (in the interleaved rounds of --repeats) with compare-commits' defaults; the
 * variants are its arguments, not --frameworks, and the run is neither split nor on another host.
 */
const NOT_FOR_COMPARE_VERSIONS = [OPTIONS.frameworks, OPTIONS.shard, OPTIONS.planOnly]
const COMPARE_VERSIONS_RUN_OPTIONS = COMPARE_COMMITS_RUN_OPTIONS.filter((spec) => !NOT_FOR_COMPARE_VERSIONS.includes(spec))

/**
 * A timeline counts (`--measure instructions` is what it is), the releases of each framework chosen by range and rule, on each runtime
 * and scenario; the count's options, the plan's split and where things go are `dyno run`'s own.
 */
const TIMELINE_OPTIONS = [
  {
    field: 'frameworks',
    flag: '--frameworks <entries>',
    description: 'SUTs each with the range of its framework\'s releases, comma-separated: `express@>=4.18.0`, `fastify@^4 || ^5` (releases ' +
      'as the registry npm is configured with lists them, prereleases left out)',
    parse: frameworkRangeList,
    default: null,
    defaultText: 'none: required'
  },
  {
    field: 'releases',
    flag: '--releases <rule>',
    description: 'Which releases of each range are measured: ' +
      Object.entries(RELEASE_RULES).map(([name, rule]) => `${name} (${rule.description})`).join(', '),
    parse: oneOf(Object.keys(RELEASE_RULES)),
    default: DEFAULT_RELEASE_RULE
  },
  {
    field: 'latestMajors',
    flag: '--latest-majors <n>',
    description: 'Only the releases of the newest n majors in each range (0: every major)',
    parse: wholeNumber({ min: 0, max: 100 }),
    default: 0
  },
  OPTIONS.runtime,
  { ...OPTIONS.scenarios, derive: undefined, defaultText: undefined, default: ['json'] },
  OPTIONS.countWarmup, OPTIONS.countRequests, OPTIONS.countWindows, OPTIONS.countJobs, OPTIONS.noCountCache, OPTIONS.shard, OPTIONS.planOnly,
  OPTIONS.seed, OPTIONS.out, OPTIONS.cacheDir, OPTIONS.readyTimeout
]

/**
 * A bisection counts one scenario on one runtime at each commit it judges, with the count's options of `dyno run`; a commit steps when
 * its change against the good commit passes `--threshold` (and the pair's own window spread).
 */
const BISECT_OPTIONS = [
  { ...OPTIONS.threshold, description: 'Smallest change against the good commit\'s count, in percent, that counts as a step' },
  {
    field: 'scenario',
    flag: '--scenario <name>',
    description: 'The scenario counted at each commit',
    parse: oneOf(ALL_SCENARIOS),
    default: 'json'
  },
  {
    field: 'runtime',
    flag: '--runtime <name>',
    description: `The runtime the SUT is counted on: ${RUNTIME_NAMES.join(', ')}`,
    parse: oneOf(RUNTIME_NAMES),
    default: DEFAULT_RUNTIME
  },
  OPTIONS.countWarmup, OPTIONS.countRequests, OPTIONS.countWindows, OPTIONS.noCountCache, OPTIONS.out, OPTIONS.cacheDir, OPTIONS.readyTimeout
]

/** The options of each command, by command name. */
export const COMMAND_OPTIONS = Object.freeze({
  run: RUN_OPTIONS,
  verify: [OPTIONS.frameworks, { ...OPTIONS.scenarios, derive: () => ALL_SCENARIOS, defaultText: 'all' }, OPTIONS.runtime, OPTIONS.workers,
    OPTIONS.readyTimeout],
  calibrate: [
    { ...defaultingTo(OPTIONS.frameworks, CALIBRATION_SUTS), description: 'SUTs to calibrate against, comma-separated' },
    defaultingTo(OPTIONS.connections, [DEFAULT_LOAD.connections]),
    {
      field: 'durationSec',
      flag: '--duration <sec>',
      description: 'Whole seconds each engine measures',
      parse: wholeNumber({ min: 1, max: 600 }),
      default: CALIBRATION_DEFAULTS.durationSec
    },
    {
      field: 'warmupSec',
      flag: '--warmup <sec>',
      description: 'Whole seconds of warmup per engine (0: none)',
      parse: wholeNumber({ min: 0, max: 600 }),
      default: CALIBRATION_DEFAULTS.warmupSec
    },
    OPTIONS.wrkThreads, OPTIONS.pin,
    defaultingTo(OPTIONS.sutCpus, 1),
    OPTIONS.readyTimeout
  ],
  report: [],
  compare: [OPTIONS.compareFormat, OPTIONS.threshold, OPTIONS.paired, OPTIONS.failOn],
  'compare-commits': [...COMPARE_COMMITS_RUN_OPTIONS, OPTIONS.compareFormat, OPTIONS.threshold, OPTIONS.failOn],
  'compare-versions': [...COMPARE_VERSIONS_RUN_OPTIONS, OPTIONS.seed, OPTIONS.compareFormat, OPTIONS.threshold, OPTIONS.failOn],
  merge: [OPTIONS.mergeOut, OPTIONS.allowMixedMachines],
  timeline: TIMELINE_OPTIONS,
  'timeline-add': [],
  site: [OPTIONS.siteOut, OPTIONS.suiteRun],
  bisect: BISECT_OPTIONS,
  host: [],
  list: []
})

/** @typedef {keyof typeof COMMAND_OPTIONS} CommandName */

/** @param {OptionSpec} spec @returns {string} the flag as typed, e.g. `--ready-timeout` */
export function flagName (spec) {
  return spec.flag.split(' ')[0]
}

/** @param {OptionSpec} spec @returns {boolean} whether the option takes a value (`--out <dir>`) or is given alone (`--paired`) */
export function takesValue (spec) {
  return spec.flag.includes('<')
}

/** @param {OptionSpec} spec @returns {string} the default as help writes it, '' when there is none to write */
export function defaultText (spec) {
  if (spec.defaultText !== undefined) return spec.defaultText
  if (spec.default === undefined || spec.default === null || typeof spec.default === 'boolean') return ''
  return Array.isArray(spec.default) ? spec.default.join(',') : String(spec.default)
}

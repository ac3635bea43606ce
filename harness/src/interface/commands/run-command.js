// @ts-check
import { planDeciding } from '../../suite/plan/split-plan.js'
import { LOAD_PROFILES, SCENARIOS } from '@dyno/scenarios'
import { DynoError } from '../../platform/errors.js'
import { connectHost } from '../../platform/hosts/host-kinds.js'
import { AUTO_CANDIDATES, ENGINES, engineNamed, protocolProblem } from '../../load/engines/index.js'
import { currentMachine, resolvePinning, resolveSplitPinning } from '../../platform/pinning/resolve-pinning.js'
import { join, resolve } from 'node:path'
import { REPO_ROOT } from '../../platform/paths.js'
import { chooseEngine, givenChoice } from '../../suite/engine-choice/engine-choice.js'
import { noisePlanOf } from '../../suite/noise-calibration/noise-plan.js'
import { measureNamed } from '../../measures/index.js'
import { plannedEntry, planParts, planRecord } from '../../suite/plan/plan-parts.js'
import { runSuite } from '../../suite/run-suite.js'
import { discoverSuts } from '../../subjects/suts/discover-suts.js'
import { resolveSubjects } from '../../subjects/suts/resolve-subjects.js'
import { selectScenarios } from '../../subjects/suts/select.js'
import { formatAggregateTable } from '../ui/aggregate-table.js'
import { DEFAULT_WIDTH, formatOverview } from '../ui/overview-table.js'
import { warningLines } from '../ui/warning-lines.js'
import { warningGroups } from '../../measures/warning-groups.js'
import { readRun } from '../../records/read-run.js'
import { createProgress } from '../ui/progress.js'
import { formatSummaryTable } from '../ui/summary-table.js'
import { formatTimeSpent } from '../ui/time-spent.js'
import { selectWithVariants } from '../../subjects/variants/variant-subjects.js'
import { writeReports } from './report-command.js'
import { RUN_OPTIONS } from '../cli/option-table.js'

/**
 * The values of `dyno run`'s options, every one given or defaulted (parse-command-line.js), with the engines' and the measures' own beside
 * them (each reads its own: `settingsOf`, `settings`).
 * @typedef {import('../../platform/options/option-spec.js').OptionValues & RunFields} RunValues
 * @typedef {{
 *   frameworks: string[], scenarios: string[], runtimes: string[], workers: number, profile: string, connections: number[], durationSec:
 *   number, warmupSec: number, launchWarmupSec: number, pipelining: number, streams: number, ratePerSec: number | null, engine: string,
 *   measure: string, countCache?: boolean, sutHost: import('../../platform/hosts/host.js').HostTarget | null, loadHosts:
 *   import('../../platform/hosts/host.js').HostTarget[] | null, pin: import('../../platform/pinning/parse-pin.js').PinRequest, sutCpus:
 *   number, repeats: number, shard: import('../../suite/plan/plan-parts.js').ShardSpec | null, planOnly: boolean, seed: number, quietCheck:
 *   'on' | 'off', censusArgs: 'on' | 'off', disturbedAbovePct: number, out: string, cacheDir: string, freshSut: boolean, readyTimeoutSec:
 *   number, pgPoolSize: number, windowMs: number, runtimeEvents: 'on' | 'off', verify: boolean, verbose: boolean, sizeRepeats?: boolean }}
 *   RunFields sizeRepeats: the rounds were not given (none of `--repeats`, `--duration`, `--warmup`, `--launch-warmup`): a profile with a
 *   time budget sizes them from the machine's spread
 */

/**
 * `dyno run`: benchmark, print a summary, and say where the results are.
 * Exit code: 0 when every run is ok or skipped, 1 when any failed or is invalid; interrupted: see main.
 * @param {RunValues} options the parsed options of `dyno run` (parse-command-line.js): every one given or defaulted
 * @param {import('../cli/io.js').Io} io
 * @param {AbortSignal} signal aborted by an interruption: the run under way stops and is written
 * @param {Set<string>} planFields the fields of its options that decide what the plan measures (parse-command-line.js)
 * @returns {Promise<number>}
 */
export async function runCommand (options, io, signal, planFields) {
  if (options.planOnly) return printPlan(options, io, planFields)
  return (await runBenchmarks(options, io, signal, planFields)).exitCode
}

/**
 * What `dyno run` does, for the commands built on it (compare-versions): the run directory, with the exit code `dyno run` would give.
 * @param {RunValues} values @param {import('../cli/io.js').Io} io @param {AbortSignal} signal
 * @param {Set<string>} planFields
 * @returns {Promise<{ exitCode: number, runDir: string }>}
 */
export async function runBenchmarks (values, io, signal, planFields) {
  let options = values
  const startedAt = performance.now()
  const measure = measureNamed(options.measure)
  // The engine named is looked up once, here; `auto` chooses one below. What the options ask of an engine they name (or of a measure
  // that sends its own requests, which records the engine `auto` prefers) is judged before anything starts.
  const named = options.engine === 'auto' ? null : engineNamed(options.engine)
  const unchosen = measure.engineUnlessNamed ? engineNamed(measure.engineUnlessNamed) : AUTO_CANDIDATES[0]
  const scenarios = selectScenarios([...SCENARIOS], options.scenarios)
  // A scenario in a protocol the named engine does not speak stops the run here, naming both.
  const unspoken = named && measure.loadedByEngine ? protocolProblem(named, scenarios) : null
  if (unspoken) throw new DynoError('DYNO_ERR_INVALID_OPTION', unspoken)
  const settingsInput = /** @type {import('../../measures/load-settings.js').SettingsInput} */ (options)
  const early = named || !measure.loadedByEngine ? measure.settings(settingsInput, named ?? unchosen) : null
  // A SUT host is asked first: one that cannot be used stops the run before anything starts.
  const sutHost = options.sutHost ? await connectSutHost(options.sutHost, options) : null
  // A SUT host that is another machine has cpus of its own: the SUT's are pinned there, and this machine's all go to the load.
  const pinning = sutHost && !sutHost.sharesProcesses
    ? resolveSplitPinning(options.pin, sutHost.machine, currentMachine(), { sutCpus: options.sutCpus, sutHostName: sutHost.name })
    : resolvePinning(options.pin, undefined, { sutCpus: options.sutCpus })
  const loadHosts = options.loadHosts ? await connectLoadHosts(options.loadHosts, named, options, pinning, sutHost) : null
  const progress = createProgress(io.stderr, {
    warmupSec: options.warmupSec, durationSec: options.durationSec, launchWarmupSec: options.launchWarmupSec
  })
  // Variants of a framework are resolved (all of them, before anything is installed), then installed into their cached copies.
  const selected = await selectWithVariants(discoverSuts(), options.frameworks, {
    cacheDir: resolve(REPO_ROOT, options.cacheDir),
    signal,
    onLine: (entry, line) => progress.log(`  install ${entry}: ${line}`)
  })
  const suts = await resolveSubjects(selected, {
    runtimes: options.runtimes,
    workers: options.workers,
    onBuildLine: (name, line) => progress.log(`  build ${name}: ${line}`)
  })
  const interrupted = () =>
    new DynoError('DYNO_ERR_INTERRUPTED', `interrupted by ${String(signal.reason)} before the first run; nothing was measured`)
  if (signal.aborted) throw interrupted()
  // connectLoadHosts refused `--load-hosts` without an engine named that spreads over hosts.
  const chosen = !measure.loadedByEngine
    ? null
    : loadHosts && named
      ? { engine: named, choice: givenChoice(named, `\`--engine ${named.name}\` on ${loadHosts.length} load hosts`) }
      : await chooseEngine({
        given: named,
        scenarios,
        connections: options.connections,
        pinning,
        cacheDir: resolve(REPO_ROOT, options.cacheDir),
        readyTimeoutSec: options.readyTimeoutSec,
        engineOptions: options,
        signal,
        log: (line) => progress.log(line)
      })
  if (signal.aborted) throw interrupted()
  const engine = chosen?.engine ?? named ?? unchosen
  const engineChoice = chosen?.choice ?? null
  const profile = LOAD_PROFILES[/** @type {keyof typeof LOAD_PROFILES} */ (options.profile)]
  // Shaped once: again only when `auto` chose another engine than the one the options were judged against.
  const load = early?.engine === engine.name ? early : measure.settings(settingsInput, engine)
  // The default profile's rounds, sized from the machine's spread within its time budget, when the options did not set them.
  const noisePlan = options.sizeRepeats && measure.roundsSizedByNoise && profile.budgetSec && !options.shard
    ? await noisePlanOf({
      engine,
      engineOptions: options,
      connections: options.connections[0],
      budgetSec: profile.budgetSec,
      profile,
      scenarios,
      cells: suts.length * scenarios.length * options.connections.length,
      load,
      measure,
      pinning,
      freshSut: options.freshSut,
      cacheDir: resolve(REPO_ROOT, options.cacheDir),
      readyTimeoutSec: options.readyTimeoutSec,
      profileRepeats: options.repeats,
      signal,
      log: (line) => progress.log(line)
    })
    : null
  if (signal.aborted) throw interrupted()
  if (noisePlan) options = { ...options, repeats: noisePlan.repeats }
  const outcome = await runSuite(
    {
      suts,
      scenarios,
      load,
      measure,
      engine,
      connections: options.connections,
      repeats: options.repeats,
      seed: options.seed,
      out: options.out,
      verify: options.verify,
      readyTimeoutSec: options.readyTimeoutSec,
      pgPoolSize: options.pgPoolSize,
      pinning,
      engineChoice,
      noisePlan,
      countCacheDir: options.countCache ? join(resolve(REPO_ROOT, options.cacheDir)) : null,
      freshSut: options.freshSut,
      shard: options.shard,
      quietCheck: options.quietCheck,
      censusArgs: options.censusArgs,
      disturbedAbovePct: options.disturbedAbovePct,
      sutHost,
      loadHosts,
      recorded: {
        ...options,
        sutHost: options.sutHost?.url ?? null,
        loadHosts: loadHosts?.map(({ host, cpus }) => ({ name: host.name, address: host.address, cpus })) ?? null,
        pinning
      },
      planOptions: planOptionsOf(options, planFields),
      signal
    }, {
      onStart: ({ runDir, total, planCells }) => progress.log(`dyno: ${total} runs` +
      `${options.shard ? ` (part ${options.shard.index}/${options.shard.count} of a plan of ${planCells})` : ''}` +
      ` (${suts.length} SUT${suts.length === 1 ? '' : 's'}` +
      `${options.runtimes.length > 1 ? ` (${selected.length} × runtimes ${options.runtimes.join(', ')})` : ''} × ` +
        `${scenarios.length} scenarios` +
      `${options.connections.length > 1 ? ` × ${options.connections.length} connection levels` : ''}` +
      `${options.repeats > 1 ? ` × ${options.repeats} repeats, seed ${options.seed}` : ''}; ` +
      `${measure.describeRun({ load, profile: options.profile, engineReason: engineChoice?.reason ?? null })}), results in ${runDir}`),
      onServices: ({ available, unavailable }) => {
        if (available.length > 0) progress.log(`dyno: services up: ${available.join(', ')}`)
        for (const [name, reason] of Object.entries(unavailable)) {
          progress.log(`dyno: ${name} unavailable, its scenarios will be ${process.env.CI === 'true' ? 'failed' : 'skipped'}: ${reason}`)
        }
      },
      onProgress: (event) => progress.update(event),
      onNote: (line) => progress.log(`dyno: ${line}`),
      // On a terminal the live line says what runs; a line per result only with --verbose, or where there is no live line (CI, pipes).
      onResult: (record, file) => {
        if (!options.verbose && io.stderr.isTTY) return
        const figures = measure.resultFigures(record)
        progress.log(`  ${record.status.padEnd(7)} ${record.sut.label} × ${record.scenario.name}${figures}  → ${file}`)
      }
    })
  progress.done()
  if (measure.terminalTable) io.stdout.write(measure.terminalTable(outcome.records) + '\n')
  else if (options.verbose) {
    io.stdout.write(formatSummaryTable(outcome.records, { showConnections: options.connections.length > 1 }) + '\n')
    if (options.repeats > 1) io.stdout.write(formatAggregateTable(outcome.aggregates, outcome.records) + '\n')
  }
  const reports = writeReports([outcome.runDir])
  io.stdout.write(`${endOfRun(readRun(outcome.runDir), measure, io, options.verbose).join('\n')}\n`)
  io.stdout.write(`${formatTimeSpent(outcome.records, performance.now() - startedAt)}\n`)
  io.stdout.write(`results: ${outcome.runDir}\n`)
  for (const path of reports) io.stdout.write(`report: ${path}\n`)
  if (outcome.interrupted) {
    const error = new DynoError(
      'DYNO_ERR_INTERRUPTED',
      `interrupted after ${outcome.records.length} runs; they are kept in ${outcome.runDir}`
    )
    io.stderr.write(`${error.code}: ${error.message}\n`)
    return { exitCode: error.exitCode, runDir: outcome.runDir }
  }
  return {
    exitCode: outcome.records.some((record) => record.status === 'failed' || record.status === 'invalid') ? 1 : 0,
    runDir: outcome.runDir
  }
}

/**
 * What a run ends with: its overview as wide as the terminal is (80 columns when it does not say), then its warnings, a line per cause.
 * @param {import('../../records/read-run.js').RunData} run @param {import('../../measures/measure.js').Measure} measure
 * @param {import('../cli/io.js').Io} io @param {boolean} verbose
 * @returns {string[]}
 */
function endOfRun (run, measure, io, verbose) {
  const terminal = /** @type {NodeJS.WriteStream} */ (io.stdout)
  const width = terminal.isTTY && terminal.columns > 0 ? terminal.columns : DEFAULT_WIDTH
  const overview = measure.report.overview(run)
  const warnings = warningLines(warningGroups(run.records), { width, verbose })
  return [
    ...(overview ? ['', formatOverview(overview, { width, colour: terminal.isTTY === true && !process.env.NO_COLOR })] : []),
    ...(warnings.length > 0 ? ['', ...warnings] : []),
    ''
  ]
}

/**
 * The SUT host of `--sut-host`, connected and checked; what a run there cannot do yet is refused here, before anything starts.
 * @param {import('../../platform/hosts/host.js').HostTarget} target @param {RunValues} options
 * @returns {Promise<import('../../platform/hosts/host.js').Host>}
 */
async function connectSutHost (target, options) {
  const host = await connectHost(target, 'sut')
  if (!host.sharesFilesystem && options.runtimes.some((/** @type {string} */ runtime) => runtime !== 'node')) {
    throw new DynoError(
      'DYNO_ERR_INVALID_OPTION',
      `\`--runtime ${options.runtimes.join(',')}\` with \`--sut-host ${target.url}\`: a SUT host with a ` +
        'checkout of its own runs the Node SUTs on its own Node only (`--runtime node`)'
    )
  }
  return host
}

/**
 * The hosts of `--load-hosts`, connected and checked, each with the cpus its engine gets: a host that is this machine the run's
 * generator cpus, another machine every cpu it has.
 * @param {import('../../platform/hosts/host.js').HostTarget[]} targets
 * @param {import('../../load/engines/engine.js').Engine | null} given the engine `--engine` named; null: `auto`
 * @param {RunValues} options @param {import('../../platform/pinning/resolve-pinning.js').PinPlan} pinning
 * @param {import('../../platform/hosts/host.js').Host | null} sutHost null: this machine
 * @returns {Promise<import('../../load/engines/engine.js').LoadHost[]>}
 */
async function connectLoadHosts (targets, given, options, pinning, sutHost) {
  if (!given?.startOnHosts) {
    const spreading = ENGINES.filter((engine) => engine.startOnHosts).map((engine) => engine.name)
    throw new DynoError(
      'DYNO_ERR_INVALID_OPTION',
      '`--load-hosts` runs one engine on every host, one that can spread its load over hosts: give ' +
        `${spreading.map((name) => `\`--engine ${name}\``).join(' or ')}, got \`${options.engine}\``
    )
  }
  /** @type {import('../../load/engines/engine.js').LoadHost[]} */
  const loadHosts = []
  for (const target of targets) {
    const host = await connectHost(target, 'load')
    // A SUT on this machine listens on its loopback, which a host with a network of its own does not reach.
    if (!host.sharesNetwork && (sutHost?.sharesNetwork ?? true)) {
      throw new DynoError(
        'DYNO_ERR_INVALID_OPTION',
        `\`--load-hosts ${target.url}\` needs \`--sut-host\` on another machine: a SUT on this machine ` +
          `listens on its loopback, which ${target.url} does not reach`
      )
    }
    loadHosts.push(host.sharesProcesses
      ? { host, cpus: pinning.generatorCpus ?? host.machine.cpus, pin: pinning.generatorCpus !== null }
      : { host, cpus: host.machine.cpus, pin: false })
  }
  return loadHosts
}

/**
 * `dyno run --plan`: the plan as JSON on stdout, nothing built, started or measured.
 * @param {RunValues} options @param {import('../cli/io.js').Io} io @param {Set<string>} planFields
 * @returns {Promise<number>}
 */
async function printPlan (options, io, planFields) {
  const selected = await selectWithVariants(discoverSuts(), options.frameworks, {
    cacheDir: resolve(REPO_ROOT, options.cacheDir),
    install: false
  })
  const suts = await resolveSubjects(selected, { runtimes: options.runtimes, workers: options.workers, build: false })
  const plan = planParts({
    suts,
    scenarios: selectScenarios([...SCENARIOS], options.scenarios),
    connections: options.connections,
    repeats: options.repeats,
    seed: options.seed,
    planOptions: planOptionsOf(options, planFields),
    shard: options.shard,
    settings: options,
    measure: measureNamed(options.measure)
  })
  io.stdout.write(
    JSON.stringify(
      {
        ...planRecord(plan, options.shard),
        parts: plan.parts.map((part, index) => ({
          shard: `${index + 1}/${plan.parts.length}`,
          cells: part.units.length,
          expectedSec: part.expectedSec,
          planned: part.units.map(plannedEntry)
        }))
      },
      null,
      2
    ) + '\n'
  )
  return 0
}

/**
 * The options that decide what a run's plan measures (its identity), with each host as the user named it: the same from `--plan` as
 * from the run, on every machine of a matrix.
 * @param {RunValues} options @param {Set<string>} planFields @returns {Record<string, unknown>}
 */
function planOptionsOf (options, planFields) {
  return planDeciding({
    ...options,
    sutHost: options.sutHost?.url ?? null,
    loadHosts: options.loadHosts?.map((/** @type {import('../../platform/hosts/host.js').HostTarget} */ target) => target.url) ?? null
  }, planFields)
}

/** @type {import('../cli/command.js').Command} */
export const RUN_COMMAND = {
  name: 'run',
  args: [],
  summary: 'Benchmark the selected SUTs on the selected scenarios and write one result file per run',
  options: RUN_OPTIONS,
  run: ({ options }, io, signal) => runCommand(/** @type {RunValues} */ ({
    ...options.values,
    sizeRepeats: !['repeats', 'durationSec', 'warmupSec', 'launchWarmupSec'].some((field) => options.given.has(field))
  }), io, signal, options.planFields)
}

// @ts-check
// A run's setup, settled once from `dyno run`'s options before any cell: the measure, the hosts and where each process is pinned, the
// subjects (variants installed, SUTs built), the engine (named, or chosen from this machine's calibration), the load settings and the
// rounds sized from the machine's spread. Every command that runs benchmarks prepares through here; runSuite consumes what it gives.
import { resolve } from 'node:path'
import { LOAD_PROFILES } from '@dyno/scenarios'
import { engineNamed } from '../load/engines/index.js'
import { measureNamed } from '../measures/index.js'
import { DynoError } from '../platform/errors.js'
import { REPO_ROOT } from '../platform/paths.js'
import { currentMachine, resolvePinning, resolveSplitPinning } from '../platform/pinning/resolve-pinning.js'
import { subjectCatalogue } from '../subjects/suts/subject-catalogue.js'
import { resolveSubjects } from '../subjects/suts/resolve-subjects.js'
import { selectScenarios } from '../subjects/suts/select.js'
import { chooseEngine, givenChoice } from '../measures/calibrations/engine-choice/engine-choice.js'
import { rankChoice } from '../judging/rank-figure.js'
import { planParts } from './plan/plan-parts.js'
import { connectLoadHosts, connectSutHost } from './run-hosts.js'

/**
 * The values of `dyno run`'s options, every one given or defaulted (parse-command-line.js), with the engines' and the measures' own beside
 * them (each reads its own: `settingsOf`, `settings`).
 * @typedef {import('../platform/options/option-spec.js').OptionValues & RunFields} RunValues
 * @typedef {{
 *   frameworks: string[], scenarios: string[], runtimes: string[], workers: number, profile: string, connections: number[], durationSec:
 *   number, warmupSec: number, launchWarmupSec: number, pipelining: number, streams: number, ratePerSec: number | null, engine: string,
 *   measure: string, countCache?: boolean, sutHost: import('../platform/hosts/host.js').HostTarget | null, loadHosts:
 *   import('../platform/hosts/host.js').HostTarget[] | null, pin: import('../platform/pinning/parse-pin.js').PinRequest, sutCpus:
 *   number, repeats: number, rankBy: 'auto' | 'req/s' | 'cost', shard: import('./plan/plan-parts.js').ShardSpec | null, planOnly:
 *   boolean, seed: number, quietCheck: 'on' | 'off', censusArgs: 'on' | 'off', disturbedAbovePct: number, out: string, cacheDir: string,
 *   freshSut: boolean, readyTimeoutSec: number, pgPoolSize: number, windowMs: number, runtimeEvents: 'on' | 'off', verify: boolean,
 *   verbose: boolean, sizeRepeats?: boolean, app?: import('../subjects/apps/load-app.js').App | null }}
 *   RunFields sizeRepeats: the rounds were not given (none of `--repeats`, `--duration`, `--warmup`, `--launch-warmup`): a profile with a
 *   time budget sizes them from the machine's spread
 *
 * @typedef {object} RunSetup everything a run settled on before its first cell
 * @property {RunValues} options as given, with the rounds the noise plan sized
 * @property {import('../measures/measure.js').Measure} measure
 * @property {import('../load/engines/engine.js').Engine} engine the run's engine: named, chosen, or the one a measure drives itself
 * @property {import('../measures/calibrations/engine-choice/engine-choice.js').EngineChoice | null} engineChoice how it was chosen
 *   (null: the measure drives its own)
 * @property {import('../records/result-record.js').LoadSettings} load
 * @property {import('@dyno/scenarios').Scenario[]} scenarios
 * @property {number} frameworkCount the frameworks and their variants selected, before each is put on its runtimes
 * @property {import('../subjects/suts/resolve-subjects.js').Subject[]} suts each on its runtime, built
 * @property {import('../platform/pinning/resolve-pinning.js').PinPlan} pinning
 * @property {import('../platform/hosts/host.js').Host | null} sutHost null: this machine
 * @property {import('../load/engines/engine.js').LoadHost[] | null} loadHosts null: only this machine
 * @property {import('../measures/calibrations/noise/size-repeats.js').NoisePlan | null} noisePlan
 * @property {import('../judging/rank-figure.js').RankChoice} rankBy the figure the rank groups are made on: the noise plan's choice, else
 *   the one given (`auto` without a calibration read: req/s)
 */

/**
 * @param {RunValues} values
 * @param {{ signal: AbortSignal, log: (line: string) => void }} context log: a line for the user (installs, builds, the engine's and
 *   the rounds' calibration)
 * @returns {Promise<RunSetup>}
 * @throws {DynoError} an option the run cannot honour (before anything starts), or DYNO_ERR_INTERRUPTED before the first cell
 */
export async function prepareRun (values, { signal, log }) {
  const measure = measureNamed(values.measure)
  const cacheDir = resolve(REPO_ROOT, values.cacheDir)
  // The engine named is looked up once, here; `auto` chooses one below, unless the measure drives its own. What the options ask of the
  // engine is judged before anything starts.
  const named = values.engine === 'auto' ? null : engineNamed(values.engine)
  const catalogue = subjectCatalogue(values.app)
  const scenarios = selectScenarios(catalogue.scenarios, values.scenarios)
  const own = measure.ownEngine(named, scenarios)
  const settingsInput = /** @type {import('../measures/load-settings.js').SettingsInput} */ (values)
  const judgedWith = own ?? named
  const early = judgedWith ? measure.plan.settings(settingsInput, judgedWith) : null
  const { sutHost, pinning, loadHosts } = await placeRun(values, named)
  const selected = await catalogue.variants.select(values.frameworks, {
    cacheDir, signal, onLine: (entry, line) => log(`  install ${entry}: ${line}`)
  })
  const suts = await resolveSubjects(selected, {
    runtimes: values.runtimes, workers: values.workers, onBuildLine: (name, line) => log(`  build ${name}: ${line}`)
  })
  stopIfInterrupted(signal)
  const chosen = own
    ? null
    : loadHosts && named
      ? { engine: named, choice: givenChoice(named, `\`--engine ${named.name}\` on ${loadHosts.length} load hosts`) }
      : await chooseEngine({
        given: named,
        scenarios,
        connections: values.connections,
        pinning,
        cacheDir,
        readyTimeoutSec: values.readyTimeoutSec,
        engineOptions: values,
        signal,
        log
      })
  stopIfInterrupted(signal)
  const engine = own ?? /** @type {{ engine: import('../load/engines/engine.js').Engine }} */ (chosen).engine
  // Shaped once: again only when `auto` chose another engine than the one the options were judged against.
  const load = early?.engine === engine.name ? early : measure.plan.settings(settingsInput, engine)
  const noisePlan = await sizeRounds(values, { engine, measure, load, scenarios, cells: suts.length, pinning, signal, log })
  stopIfInterrupted(signal)
  return {
    options: noisePlan ? { ...values, repeats: noisePlan.repeats } : values,
    measure,
    engine,
    engineChoice: chosen?.choice ?? null,
    load,
    scenarios,
    frameworkCount: selected.length,
    suts,
    pinning,
    sutHost,
    loadHosts,
    noisePlan,
    rankBy: noisePlan?.rankBy ?? rankChoice(values.rankBy ?? 'auto', null)
  }
}

/**
 * `--plan`: the run's plan from its options alone, nothing installed, built, connected or calibrated.
 * @param {RunValues} values @param {Set<string>} planFields the options that decide what the plan measures (split-plan.js)
 * @returns {Promise<import('./plan/plan-parts.js').PlanParts>}
 */
export async function preparePlan (values, planFields) {
  const catalogue = subjectCatalogue(values.app)
  const selected = await catalogue.variants.select(values.frameworks, { cacheDir: resolve(REPO_ROOT, values.cacheDir), install: false })
  const suts = await resolveSubjects(selected, { runtimes: values.runtimes, workers: values.workers, build: false })
  const subjects = { suts, scenarios: selectScenarios(catalogue.scenarios, values.scenarios), measure: measureNamed(values.measure) }
  return planParts(subjects, values, { settings: values, planFields })
}

/**
 * Where the run's processes go: the SUT host (asked first: one that cannot be used stops the run before anything starts), the cpus of
 * SUTs and generators, and the load hosts.
 * @param {RunValues} values @param {import('../load/engines/engine.js').Engine | null} named
 */
async function placeRun (values, named) {
  const sutHost = values.sutHost ? await connectSutHost(values.sutHost, values.runtimes) : null
  // A SUT host that is another machine has cpus of its own: the SUT's are pinned there, and this machine's all go to the load.
  const pinning = sutHost && !sutHost.sharesProcesses
    ? resolveSplitPinning(values.pin, sutHost.machine, currentMachine(), { sutCpus: values.sutCpus, sutHostName: sutHost.name })
    : resolvePinning(values.pin, undefined, { sutCpus: values.sutCpus })
  const loadHosts = values.loadHosts
    ? await connectLoadHosts(values.loadHosts, { given: named, engineOption: values.engine, pinning, sutHost })
    : null
  return { sutHost, pinning, loadHosts }
}

/**
 * The default profile's rounds, sized from the machine's spread within its time budget, when the options did not set them.
 * @param {RunValues} values
 * @param {{ engine: import('../load/engines/engine.js').Engine, measure: import('../measures/measure.js').Measure,
 *   load: import('../records/result-record.js').LoadSettings, scenarios: import('@dyno/scenarios').Scenario[], cells: number,
 *   pinning: import('../platform/pinning/resolve-pinning.js').PinPlan, signal: AbortSignal, log: (line: string) => void }} run
 *   cells: the SUTs, each to be measured on every scenario and connection level
 * @returns {Promise<import('../measures/calibrations/noise/size-repeats.js').NoisePlan | null>} null: the rounds as given, or the
 *   profile's
 */
async function sizeRounds (values, { engine, measure, load, scenarios, cells, pinning, signal, log }) {
  const profile = LOAD_PROFILES[/** @type {keyof typeof LOAD_PROFILES} */ (values.profile)]
  if (!values.sizeRepeats || !profile.budgetSec || values.shard) return null
  return measure.plan.sizeRounds({
    engine,
    engineOptions: values,
    connections: values.connections[0],
    budgetSec: profile.budgetSec,
    profile,
    scenarios,
    cells: cells * scenarios.length * values.connections.length,
    load,
    measure,
    pinning,
    freshSut: values.freshSut,
    cacheDir: resolve(REPO_ROOT, values.cacheDir),
    readyTimeoutSec: values.readyTimeoutSec,
    profileRepeats: values.repeats,
    rankBy: values.rankBy,
    signal,
    log
  })
}

/** @param {AbortSignal} signal */
function stopIfInterrupted (signal) {
  if (signal.aborted) {
    throw new DynoError('DYNO_ERR_INTERRUPTED', `interrupted by ${String(signal.reason)} before the first run; nothing was measured`)
  }
}

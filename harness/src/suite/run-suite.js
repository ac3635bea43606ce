// @ts-check
import { join, resolve } from 'node:path'
import { PROTOCOLS } from '@dyno/scenarios'
import { DEFAULTS, SCHEMA_VERSION } from '../platform/defaults.js'
import { environmentFingerprint } from '../platform/env/fingerprint.js'
import { thisMachine } from '../platform/hosts/host-kinds.js'
import { REPO_ROOT } from '../platform/paths.js'
import { makeDirectory } from '../platform/util/checked-paths.js'
import { mapLimit } from '../platform/util/map-limit.js'
import { aggregateRuns } from '../records/aggregate-runs.js'
import { createRunId } from '../records/run-id.js'
import { AGGREGATES_FILE } from '../records/run-layout.js'
import { writeJsonAtomic } from '../records/write-json-atomic.js'
import { planParts, planRecord } from './plan/plan-parts.js'
import { lookBeforeMeasuring } from './quiet-check.js'
import { startRemeasuring } from './remeasure.js'
import { openRunIndex } from './run-index.js'
import { withRunResources } from './run-resources.js'
import { runOne } from './run-one.js'

/**
 * @typedef {object} SuiteOptions what `dyno run` settled on, once, from its options
 * @property {import('../subjects/suts/resolve-subjects.js').Subject[]} suts resolved: each on its runtime, built
 * @property {import('@dyno/scenarios').Scenario[]} scenarios
 * @property {import('../records/result-record.js').LoadSettings} load
 * @property {import('../measures/measure.js').Measure} measure how every cell is measured: the one `load.measure` names
 * @property {import('../load/engines/engine.js').Engine} engine the run's engine, chosen once: the one `load.engine` names
 * @property {number[]} connections one run per level
 * @property {number} repeats rounds of every (SUT, scenario, level), shuffled when more than one
 * @property {number} seed of the shuffle and the bootstrap
 * @property {string} out the directory that receives the run directory
 * @property {boolean} verify
 * @property {number} pgPoolSize
 * @property {import('../platform/pinning/resolve-pinning.js').PinPlan} pinning where SUTs and the generator run
 * @property {number} readyTimeoutSec
 * @property {Readonly<Record<string, unknown>>} recorded what the user asked for, as run.json records it (its `options`): read by nothing
 *   below the command
 * @property {Record<string, unknown>} planOptions of those, the ones that decide what the plan measures: its identity (split-plan.js)
 * @property {import('../measures/calibrations/engine-choice/engine-choice.js').EngineChoice | null} engineChoice how the run's engine
 *   was chosen (null: the measure drives its own)
 * @property {string | null} countCacheDir where instruction counts are kept and reused; null: every count is made anew
 * @property {import('./plan/plan-parts.js').ShardSpec | null} [shard] the part of the plan this run carries out (`--shard K/N`);
 *   none: all of it
 * @property {boolean} freshSut one SUT process per cell, instead of one per SUT for its consecutive cells (sut-session.js)
 * @property {import('../platform/hosts/host.js').Host | null} [sutHost] the host SUTs and their services run on, when not this machine
 * @property {import('../load/engines/engine.js').LoadHost[] | null} [loadHosts] the hosts the load comes from, when not only this machine
 * @property {import('../measures/calibrations/noise/size-repeats.js').NoisePlan | null} [noisePlan] how the rounds were sized from the
 *   machine's spread (the default profile, its rounds not given); absent: as given or the profile's
 * @property {'on' | 'off'} quietCheck look at the machine before measuring (quiet-check.js)
 * @property {'on' | 'off'} censusArgs name other processes by their (masked) arguments too, not only by pid, name and user
 * @property {number} disturbedAbovePct the share of the SUT's or the generator's cpus others may take before a cell is disturbed
 * @property {AbortSignal} signal
 *
 * @typedef {object} SuiteHooks
 * @property {(info: { runId: string, runDir: string, total: number, planCells: number }) => void} [onStart] total: the runs of this
 *   part of the plan (all of it without --shard)
 * @property {(info: { available: string[], unavailable: Record<string, string>, described: Record<string, Record<string, unknown>> }) =>
 *   void} [onServices]
 * @property {(info: { index: number, total: number, sut: string, scenario: string, connections: number, repeat: number } &
 *   import('../measures/cell-context.js').CellProgress) => void} [onProgress]
 * @property {(record: import('../records/result-record.js').ResultRecord, file: string) => void} [onResult]
 * @property {(line: string) => void} [onNote] a line for the user (a cached count that could not be used, and why)
 */

/**
 * Runs the cells of the plan in order, measures the disturbed ones again, and writes each result file the moment its run ends, then
 * the run index (run.json) after it, so nothing measured is lost to a crash or a Ctrl-C later in the suite.
 * @param {SuiteOptions} suite
 * @param {SuiteHooks} [hooks]
 */
export async function runSuite (suite, hooks = {}) {
  if (suite.engine.name !== suite.load.engine) {
    throw new Error(`the suite's engine ${suite.engine.name} is not its load's ${suite.load.engine}`)
  }
  if (suite.measure.name !== suite.load.measure) {
    throw new Error(`the suite's measure ${suite.measure.name} is not its load's ${suite.load.measure}`)
  }
  const runId = createRunId()
  const runDir = join(resolve(REPO_ROOT, suite.out), runId)
  makeDirectory(runDir)
  const { env, sutHost } = machinesOf(suite)
  const shard = suite.shard ?? null
  const parts = planParts({ ...suite, shard, settings: suite.load })
  const plan = parts.mine.units
  const index = openRunIndex(runDir, { runId, env, plan, planRecord: planRecord(parts, shard), suite })
  hooks.onStart?.({ runId, runDir, total: plan.length, planCells: parts.whole.length })
  const remeasuring = startRemeasuring(suite, plan.length)
  const tls = plan.some((planned) => PROTOCOLS[planned.scenario.protocol].tls)
  await withRunResources({ runId, sutHost, scenarios: suite.scenarios, tls }, async (resources) => {
    const described = resources.services.describe()
    if (described.postgres) described.postgres.poolSize = suite.pgPoolSize
    index.servicesStarted(described)
    hooks.onServices?.({
      available: [...resources.services.available.keys()],
      unavailable: Object.fromEntries(resources.services.unavailable),
      described
    })
    const context = runContext(suite, hooks, { runId, env, sutHost, resources })
    await measurePlan(suite, hooks, { plan, index, context, resources, remeasuring })
  })
  const records = index.records()
  const aggregates = aggregateRuns(records, { seed: suite.seed })
  writeJsonAtomic(join(runDir, AGGREGATES_FILE), { schemaVersion: SCHEMA_VERSION, runId, seed: suite.seed, aggregates })
  index.finish({ aggregatesFile: AGGREGATES_FILE, interrupted: suite.signal.aborted })
  return { runId, runDir, records, aggregates, interrupted: suite.signal.aborted }
}

/**
 * This machine's fingerprint and the host the SUTs run on; a run on other machines records each one's fingerprint beside this one's.
 * @param {SuiteOptions} suite
 */
function machinesOf (suite) {
  const env = environmentFingerprint()
  const sutHost = suite.sutHost ?? thisMachine('sut', env)
  if (!sutHost.sharesProcesses) {
    env.hosts = [
      sutHost.description,
      ...(suite.loadHosts?.map((entry) => entry.host.description) ?? [thisMachine('load', env).description])
    ]
  }
  return { env, sutHost }
}

/**
 * What every cell of the run shares.
 * @param {SuiteOptions} suite @param {SuiteHooks} hooks
 * @param {{ runId: string, env: import('../records/result-record.js').ResultRecord['env'],
 *   sutHost: import('../platform/hosts/host.js').Host, resources: import('./run-resources.js').RunResources }} run
 * @returns {import('../measures/cell-context.js').RunContext}
 */
function runContext (suite, hooks, { runId, env, sutHost, resources }) {
  return {
    runId,
    env,
    load: suite.load,
    measure: suite.measure,
    engine: suite.engine,
    pinning: suite.pinning,
    sutHost,
    loadHosts: suite.loadHosts ?? null,
    verify: suite.verify,
    readyTimeoutSec: suite.readyTimeoutSec,
    stopGraceSec: DEFAULTS.stopGraceSec,
    requestTimeoutSec: DEFAULTS.requestTimeoutSec,
    pgPoolSize: suite.pgPoolSize,
    services: resources.services,
    ci: env.ci,
    countCacheDir: suite.countCacheDir,
    certificate: resources.certificate,
    certificateOnSutHost: resources.certificateOnSutHost,
    censusArgs: suite.censusArgs === 'on',
    note: (line) => hooks.onNote?.(line),
    signal: suite.signal
  }
}

/**
 * Measures the cells of the plan, then the disturbed ones again, keeping each record as it comes.
 * @param {SuiteOptions} suite @param {SuiteHooks} hooks
 * @param {{ plan: import('./plan/plan-runs.js').PlannedRun[], index: import('./run-index.js').RunIndex,
 *   context: import('../measures/cell-context.js').RunContext, resources: import('./run-resources.js').RunResources,
 *   remeasuring: import('./remeasure.js').Remeasuring }} run
 */
async function measurePlan (suite, hooks, { plan, index, context, resources, remeasuring }) {
  // As many cells at once as the measure allows (load shares the machine: one), and one SUT process for a SUT's consecutive cells
  // where the measure keeps it.
  const { measure } = suite
  const { schedule } = measure
  const jobs = schedule.cellsAtOnce(suite.load)
  const groups = sessionGroups(plan, { reuse: !schedule.sutPerCell && !suite.freshSut })
  for (const note of measure.about.notes({ sutHostSharesProcesses: context.sutHost.sharesProcesses })) hooks.onNote?.(note)
  const sessionOf = resources.sessions(context, { perCell: schedule.sutPerCell })
  index.remeasured.limit = remeasuring.limit
  // What other programs take of the cpus moves a figure that does not hold beside other work: the machine is looked at first.
  if (!schedule.besideOtherWork && plan.length > 0 && !suite.signal.aborted) {
    const quietCheck = await lookBeforeMeasuring(suite, context.sutHost)
    if (quietCheck.line) hooks.onNote?.(quietCheck.line)
    index.lookedBefore(quietCheck)
  }
  /**
   * A cell of the plan, measured and judged.
   * @param {number} position @param {Partial<import('../measures/cell-context.js').Cell>} [overrides]
   */
  const measureAt = async (position, overrides = {}) => {
    const { sut, scenario, connections, repeat } = plan[position]
    /** @type {import('../measures/cell-context.js').Cell} */
    const cell = {
      sut,
      scenario,
      connections,
      repeat: { index: repeat, of: suite.repeats },
      ...groups[position],
      onProgress: (event) => hooks.onProgress?.({
        index: position, total: plan.length, sut: sut.label, scenario: scenario.name, connections, repeat, ...event
      }),
      ...overrides
    }
    const measured = await runOne(context, cell, sessionOf())
    measured.consistency = measure.judge.consistency(measured)
    remeasuring.judge(measured)
    return measured
  }
  const keep = (/** @type {number} */ position, /** @type {import('../records/result-record.js').ResultRecord} */ record) => {
    index.keep(position, record)
    hooks.onResult?.(record, plan[position].file)
  }
  await mapLimit([...plan.keys()], jobs, async (position) => {
    if (!suite.signal.aborted) keep(position, await measureAt(position))
  })
  await remeasuring.remeasureDisturbed({
    index,
    plan,
    // Each is a launch of its own.
    measureAgain: (position) => measureAt(position, { keepSut: false }),
    keep,
    note: (line) => hooks.onNote?.(line)
  })
}

/**
 * Which cells share a SUT process: consecutive cells of the same SUT in the same round (one round of a run takes a SUT's scenarios one
 * after another; the next round launches it anew), unless every cell is to have its own. Each cell learns whether the process stays
 * up after it, the services whose variables the process needs for all the cells it serves, and the scenarios a launch for it is warmed
 * over: those of the group's cells the SUT can serve, as they come (a cell measured again in a launch of its own is warmed as its group
 * was, so that it measures what the cell it replaces measured).
 * @param {import('./plan/plan-runs.js').PlannedRun[]} plan
 * @param {{ reuse: boolean }} policy
 * @returns {{ keepSut: boolean, sessionServices: string[], launchScenarios: import('@dyno/scenarios').Scenario[] }[]}
 */
function sessionGroups (plan, { reuse }) {
  const groups = []
  for (let start = 0; start < plan.length;) {
    const sameSut = (/** @type {number} */ at) => reuse && at < plan.length && plan[at].sut.label === plan[start].sut.label &&
      plan[at].repeat === plan[start].repeat
    let end = start + 1
    while (sameSut(end)) end++
    const cells = plan.slice(start, end)
    const services = [...new Set(cells.flatMap((entry) => entry.scenario.services ?? []))]
    const launchScenarios = [...new Map(cells.filter((entry) => !entry.sut.unsupportedScenarios[entry.scenario.name])
      .map((entry) => [entry.scenario.name, entry.scenario])).values()]
    for (let position = start; position < end; position++) {
      groups.push({ keepSut: position < end - 1, sessionServices: services, launchScenarios })
    }
    start = end
  }
  return groups
}

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
 * @typedef {import('./prepare-run.js').RunSetup} RunSetup
 *
 * @typedef {object} SuiteRun what a run is handed beside its setup
 * @property {Set<string>} planFields the fields of its options that decide what the plan measures, its identity (split-plan.js)
 * @property {AbortSignal} signal stops the run: the cell under way ends, and what was measured is written
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
 * @param {RunSetup} setup @param {SuiteRun} run @param {SuiteHooks} [hooks]
 */
export async function runSuite (setup, { planFields, signal }, hooks = {}) {
  const { options, measure, engine, load } = setup
  if (engine.name !== load.engine) throw new Error(`the run's engine ${engine.name} is not its load's ${load.engine}`)
  if (measure.name !== load.measure) throw new Error(`the run's measure ${measure.name} is not its load's ${load.measure}`)
  const runId = createRunId()
  const runDir = join(resolve(REPO_ROOT, options.out), runId)
  makeDirectory(runDir)
  const { env, sutHost } = machinesOf(setup)
  const parts = planParts(setup, options, { settings: load, planFields })
  const plan = parts.mine.units
  const index = openRunIndex(runDir, { runId, env, plan, planRecord: planRecord(parts, options.shard ?? null), setup })
  hooks.onStart?.({ runId, runDir, total: plan.length, planCells: parts.whole.length })
  const remeasuring = startRemeasuring(setup, { cells: plan.length, signal })
  const tls = plan.some((planned) => PROTOCOLS[planned.scenario.protocol].tls)
  const sutCpus = setup.pinning.pinned ? setup.pinning.sutCpus : null
  await withRunResources({ runId, sutHost, scenarios: setup.scenarios, tls, sutCpus }, async (resources) => {
    const described = resources.services.describe()
    if (described.postgres) described.postgres.poolSize = options.pgPoolSize
    index.servicesStarted(described)
    hooks.onServices?.({
      available: [...resources.services.available.keys()],
      unavailable: Object.fromEntries(resources.services.unavailable),
      described
    })
    const context = runContext(setup, { hooks, signal }, { runId, env, sutHost, resources })
    await measurePlan(setup, hooks, { plan, index, context, resources, remeasuring })
  })
  const records = index.records()
  const aggregates = aggregateRuns(records, { seed: options.seed, rankBy: setup.rankBy.figure })
  writeJsonAtomic(join(runDir, AGGREGATES_FILE), { schemaVersion: SCHEMA_VERSION, runId, seed: options.seed, aggregates })
  index.finish({ aggregatesFile: AGGREGATES_FILE, interrupted: signal.aborted })
  return { runId, runDir, records, aggregates, interrupted: signal.aborted }
}

/**
 * This machine's fingerprint and the host the SUTs run on; a run on other machines records each one's fingerprint beside this one's.
 * @param {RunSetup} setup
 */
function machinesOf (setup) {
  const env = environmentFingerprint()
  const sutHost = setup.sutHost ?? thisMachine('sut', env)
  if (!sutHost.sharesProcesses) {
    env.hosts = [
      sutHost.description,
      ...(setup.loadHosts?.map((entry) => entry.host.description) ?? [thisMachine('load', env).description])
    ]
  }
  return { env, sutHost }
}

/**
 * What every cell of the run shares.
 * @param {RunSetup} setup @param {{ hooks: SuiteHooks, signal: AbortSignal }} run
 * @param {{ runId: string, env: import('../records/result-record.js').ResultRecord['env'],
 *   sutHost: import('../platform/hosts/host.js').Host, resources: import('./run-resources.js').RunResources }} started
 * @returns {import('../measures/cell-context.js').RunContext}
 */
function runContext ({ options, measure, engine, load, pinning, loadHosts }, { hooks, signal }, { runId, env, sutHost, resources }) {
  return {
    runId,
    env,
    load,
    measure,
    engine,
    pinning,
    sutHost,
    loadHosts: loadHosts ?? null,
    verify: options.verify,
    readyTimeoutSec: options.readyTimeoutSec,
    stopGraceSec: DEFAULTS.stopGraceSec,
    requestTimeoutSec: DEFAULTS.requestTimeoutSec,
    pgPoolSize: options.pgPoolSize,
    services: resources.services,
    speedProbe: resources.speedProbe,
    ci: env.ci,
    countCacheDir: options.countCache ? resolve(REPO_ROOT, options.cacheDir) : null,
    certificate: resources.certificate,
    certificateOnSutHost: resources.certificateOnSutHost,
    censusArgs: options.censusArgs === 'on',
    note: (line) => hooks.onNote?.(line),
    signal
  }
}

/**
 * Measures the cells of the plan, then the disturbed ones again, keeping each record as it comes.
 * @param {RunSetup} setup @param {SuiteHooks} hooks
 * @param {{ plan: import('./plan/plan-runs.js').PlannedRun[], index: import('./run-index.js').RunIndex,
 *   context: import('../measures/cell-context.js').RunContext, resources: import('./run-resources.js').RunResources,
 *   remeasuring: import('./remeasure.js').Remeasuring }} run
 */
async function measurePlan ({ options, measure, load, pinning }, hooks, { plan, index, context, resources, remeasuring }) {
  // As many cells at once as the measure allows (load shares the machine: one), and one SUT process for a SUT's consecutive cells
  // where the measure keeps it.
  const { schedule } = measure
  const jobs = schedule.cellsAtOnce(load)
  const groups = sessionGroups(plan, { reuse: !schedule.sutPerCell && !options.freshSut })
  for (const note of measure.about.notes({ sutHostSharesProcesses: context.sutHost.sharesProcesses })) hooks.onNote?.(note)
  const sessionOf = resources.sessions(context, { perCell: schedule.sutPerCell })
  index.remeasured.limit = remeasuring.limit
  // What other programs take of the cpus moves a figure that does not hold beside other work: the machine is looked at first.
  if (!schedule.besideOtherWork && plan.length > 0 && !context.signal.aborted) {
    const { quietCheck: look, censusArgs } = options
    const quietCheck = await lookBeforeMeasuring({ quietCheck: look, censusArgs, pinning }, context.sutHost)
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
      repeat: { index: repeat, of: options.repeats },
      ...groups[position],
      onProgress: (event) => hooks.onProgress?.({
        index: position, total: plan.length, sut: sut.label, scenario: scenario.name, connections, repeat, ...event
      }),
      ...overrides
    }
    const measured = await runOne(context, cell, sessionOf(sut.label))
    measured.consistency = measure.judge.consistency(measured)
    remeasuring.judge(measured)
    return measured
  }
  const keep = (/** @type {number} */ position, /** @type {import('../records/result-record.js').ResultRecord} */ record) => {
    index.keep(position, record)
    hooks.onResult?.(record, plan[position].file)
  }
  await mapLimit([...plan.keys()], jobs, async (position) => {
    if (!context.signal.aborted) keep(position, await measureAt(position))
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
 * Which cells share a SUT process: the cells of a SUT in one round (a round's blocks take every SUT in turn; the next round launches it
 * anew), unless every cell is to have its own. Each cell learns whether the process stays up after it, the services whose variables the
 * process needs for all the cells it serves, and the scenarios a launch for it is warmed over: those of the group's cells the SUT can
 * serve, as they come (a cell measured again in a launch of its own is warmed as its group was, so that it measures what the cell it
 * replaces measured).
 * @param {import('./plan/plan-runs.js').PlannedRun[]} plan
 * @param {{ reuse: boolean }} policy
 * @returns {{ keepSut: boolean, sessionServices: string[], launchScenarios: import('@dyno/scenarios').Scenario[] }[]}
 */
function sessionGroups (plan, { reuse }) {
  /** @type {Map<string, number[]>} */
  const groups = new Map()
  for (const [position, entry] of plan.entries()) {
    const key = reuse ? JSON.stringify([entry.sut.label, entry.repeat]) : String(position)
    groups.set(key, [...(groups.get(key) ?? []), position])
  }
  const shared = new Array(plan.length)
  for (const positions of groups.values()) {
    const cells = positions.map((position) => plan[position])
    const services = [...new Set(cells.flatMap((entry) => entry.scenario.services ?? []))]
    const launchScenarios = [...new Map(cells.filter((entry) => !entry.sut.unsupportedScenarios[entry.scenario.name])
      .map((entry) => [entry.scenario.name, entry.scenario])).values()]
    for (const [at, position] of positions.entries()) {
      shared[position] = { keepSut: at < positions.length - 1, sessionServices: services, launchScenarios }
    }
  }
  return shared
}

// @ts-check
import { AGGREGATES_FILE } from '../records/run-layout.js'
import { join, resolve } from 'node:path'
import { DEFAULTS, SCHEMA_VERSION } from '../platform/defaults.js'
import { environmentFingerprint } from '../platform/env/fingerprint.js'
import { REPO_ROOT } from '../platform/paths.js'
import { aggregateRuns } from '../records/aggregate-runs.js'
import { judgeDisturbance, remeasureBudget, REMEASURES_PER_CELL } from '../judging/disturbance.js'
import { writeJsonAtomic } from '../records/write-json-atomic.js'
import { thisMachine } from '../platform/hosts/host-kinds.js'
import { startServices } from '../subjects/services/service-manager.js'
import { certificateOnHost } from '../subjects/tls/certificate-on-host.js'
import { makeRunCertificate } from '../subjects/tls/run-certificate.js'
import { PROTOCOLS } from '@dyno/scenarios'
import { plannedEntry, planParts, planRecord } from './plan/plan-parts.js'
import { createRunId } from '../records/run-id.js'
import { runEnv } from '../platform/env/run-env.js'
import { runOne } from './run-one.js'
import { createSutSession } from './sut-session.js'
import { lookBeforeMeasuring } from './quiet-check.js'
import { makeDirectory } from '../platform/util/checked-paths.js'
import { mapLimit } from '../platform/util/map-limit.js'

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
 * @property {import('./engine-choice/engine-choice.js').EngineChoice | null} engineChoice how the run's engine was chosen (null: a count,
 *   no engine)
 * @property {string | null} countCacheDir where instruction counts are kept and reused; null: every count is made anew
 * @property {import('./plan/plan-parts.js').ShardSpec | null} [shard] the part of the plan this run carries out (`--shard K/N`);
 *   none: all of it
 * @property {boolean} freshSut one SUT process per cell, instead of one per SUT for its consecutive cells (sut-session.js)
 * @property {import('../platform/hosts/host.js').Host | null} [sutHost] the host SUTs and their services run on, when not this machine
 * @property {import('../load/engines/engine.js').LoadHost[] | null} [loadHosts] the hosts the load comes from, when not only this machine
 * @property {import('./noise-calibration/size-repeats.js').NoisePlan | null} [noisePlan] how the rounds were sized from the machine's
 *   spread (the default profile, its rounds not given); absent: as given or the profile's
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
 * @property {(info: { index: number, total: number, sut: string, scenario: string, connections: number, repeat: number, stage: string,
 *   phase?: string, elapsedSec?: number, requestsPerSec?: number | null }) => void} [onProgress]
 * @property {(record: import('../records/result-record.js').ResultRecord, file: string) => void} [onResult]
 * @property {(line: string) => void} [onNote] a line for the user (a cached count that could not be used, and why)
 */

/**
 * Runs every (SUT, scenario) pair in order, each on a fresh SUT process, and writes each result file
 * the moment its run ends, then the run index (run.json) after it, so nothing measured is lost to a
 * crash or a Ctrl-C later in the suite.
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
  const env = environmentFingerprint()
  const sutHost = suite.sutHost ?? thisMachine('sut', env)
  // A run on other machines records each one's fingerprint beside this machine's.
  if (!sutHost.sharesProcesses) {
    env.hosts = [
      sutHost.description,
      ...(suite.loadHosts?.map((entry) => entry.host.description) ?? [thisMachine('load', env).description])
    ]
  }
  const shard = suite.shard ?? null
  const parts = planParts({ ...suite, shard, settings: suite.load })
  const plan = parts.mine.units
  const index = {
    schemaVersion: SCHEMA_VERSION,
    runId,
    startedAt: new Date().toISOString(),
    finishedAt: /** @type {string | null} */ (null),
    status: /** @type {'running' | 'complete' | 'interrupted'} */ ('running'),
    options: suite.recorded,
    engineChoice: suite.engineChoice,
    seed: suite.seed,
    env,
    plan: planRecord(parts, shard),
    planned: plan.map(plannedEntry),
    results: /** @type {{ file: string, sut: string, runtime: string, scenario: string, connections: number, repeat: number, status: string,
      reason: string | null }[]} */ ([]),
    aggregatesFile: /** @type {string | null} */ (null),
    /** @type {import('./quiet-check.js').QuietCheck | null} */
    quietCheck: null,
    noisePlan: suite.noisePlan ?? null,
    remeasured: {
      disturbedAbovePct: suite.disturbedAbovePct,
      cells: 0,
      limit: 0,
      stillDisturbed: 0,
      /** @type {number | undefined} */
      leftForTime: undefined
    }
  }
  const indexPath = join(runDir, 'run.json')
  writeJsonAtomic(indexPath, index)
  hooks.onStart?.({ runId, runDir, total: plan.length, planCells: parts.whole.length })

  // A plan with a time budget (the default profile's rounds sized from the machine's spread) measures disturbed cells again only while
  // the budget lasts: past it, they are kept and marked.
  const deadlineMs = suite.noisePlan ? performance.now() + suite.noisePlan.budgetSec * 1000 : Infinity
  const positionOf = new Map(plan.map((planned, position) => [planned.file, position]))
  /** @type {Map<number, import('../records/result-record.js').ResultRecord>} the record kept of each cell, by its place in the plan */
  const kept = new Map()
  const services = await startServices(
    suite.scenarios.flatMap((scenario) => scenario.services ?? []),
    { mark: runEnv(runId), host: sutHost }
  )
  // The run's certificate, made once when a cell of the plan is served over TLS: its key in a directory only this run's user enters,
  // removed when the run ends (subjects/tls/run-certificate.js); the SUTs get its paths, verification and the engine trust it.
  /** @type {import('../subjects/tls/run-certificate.js').RunCertificate | null} */
  let certificate = null
  // Its files where the SUTs run: the same files on this machine, copies on a host of its own (removed with the certificate).
  /** @type {import('../subjects/tls/certificate-on-host.js').CertificateOnHost | null} */
  let onSutHost = null
  try {
    if (plan.some((planned) => PROTOCOLS[planned.scenario.protocol].tls)) {
      certificate = await makeRunCertificate()
      onSutHost = await certificateOnHost({ certFile: certificate.certFile, keyFile: certificate.keyFile }, sutHost)
    }
    env.services = services.describe()
    if (env.services.postgres) env.services.postgres.poolSize = suite.pgPoolSize
    writeJsonAtomic(indexPath, index)
    hooks.onServices?.({
      available: [...services.available.keys()],
      unavailable: Object.fromEntries(services.unavailable),
      described: env.services
    })
    /** @type {import('../measures/cell-context.js').RunContext} */
    const context = {
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
      services,
      ci: env.ci,
      countCacheDir: suite.countCacheDir,
      certificate,
      certificateOnSutHost: onSutHost && certificate
        ? { certFile: onSutHost.certFile, keyFile: /** @type {string} */ (onSutHost.keyFile), serverName: certificate.serverName }
        : null,
      censusArgs: suite.censusArgs === 'on',
      note: (line) => hooks.onNote?.(line),
      signal: suite.signal
    }
    // As many cells at once as the measure allows (load shares the machine: one), and one SUT process for a SUT's consecutive cells
    // where the measure keeps it.
    const { measure } = suite
    const jobs = measure.cellsAtOnce(suite.load)
    const groups = sessionGroups(plan, { reuse: !measure.sutPerCell && !suite.freshSut })
    for (const note of measure.runNotes({ sutHostSharesProcesses: sutHost.sharesProcesses })) hooks.onNote?.(note)
    const session = measure.sutPerCell ? null : createSutSession(context)
    const budget = remeasureBudget(plan.length)
    index.remeasured.limit = budget.limit
    if (measure.looksBeforeMeasuring && plan.length > 0 && !suite.signal.aborted) {
      index.quietCheck = await lookBeforeMeasuring(suite, sutHost)
      if (index.quietCheck.line) hooks.onNote?.(index.quietCheck.line)
      writeJsonAtomic(indexPath, index)
    }
    /**
     * A cell of the plan, ready to run.
     * @param {number} position @param {Partial<import('../measures/cell-context.js').Cell>} [overrides] @returns
     *   {import('../measures/cell-context.js').Cell}
     */
    const cellAt = (position, overrides = {}) => {
      const { sut, scenario, connections, repeat } = plan[position]
      return {
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
    }
    /** @param {import('../measures/cell-context.js').Cell} cell */
    const measureOnce = async (cell) => {
      const measured = await runOne(context, cell, session ?? createSutSession(context))
      measured.consistency = measure.checkConsistency(measured)
      const verdict = judgeDisturbance(measure.interferenceOf ? measure.interferenceOf(measured) : measured.summary?.interference,
        suite.disturbedAbovePct)
      measured.interference = verdict && { ...verdict, earlierAttempts: [] }
      return measured
    }
    /** Writes a cell's record, at once (a re-measurement replaces the cell's file and its line in run.json). */
    const keep = (/** @type {number} */ position, /** @type {import('../records/result-record.js').ResultRecord} */ record) => {
      const { sut, scenario, connections, repeat, file } = plan[position]
      writeJsonAtomic(join(runDir, file), record)
      kept.set(position, record)
      const entry = {
        file,
        sut: sut.label,
        runtime: sut.runtime.name,
        scenario: scenario.name,
        connections,
        repeat,
        status: record.status,
        reason: record.reason
      }
      // In the plan's order, whichever of `--count-jobs` counts ends first.
      const at = index.results.findIndex((listed) => listed.file === file)
      if (at !== -1) index.results[at] = entry
      else {
        const after = index.results.findIndex((listed) => (positionOf.get(listed.file) ?? 0) > position)
        index.results.splice(after === -1 ? index.results.length : after, 0, entry)
      }
      index.remeasured.stillDisturbed = [...kept.values()].filter((one) => one.interference?.disturbed).length
      writeJsonAtomic(indexPath, index)
      hooks.onResult?.(record, file)
    }
    try {
      await mapLimit([...plan.keys()], jobs, async (position) => {
        if (!suite.signal.aborted) keep(position, await measureOnce(cellAt(position)))
      })
      // Disturbed cells are measured again once the plan is done, so that a disturbance that passed (a build beside the run) has
      // passed; a pass at a time, a bounded number of passes and cells (judging/disturbance.js). Each is a launch of its own.
      /** @type {number} how long a re-measurement took, the longest so far: a launch of its own, warmed over its group's routes */
      let remeasureSec = 0
      for (let pass = 1; pass <= REMEASURES_PER_CELL; pass++) {
        const disturbed = [...kept].filter(([, record]) => record.status === 'ok' && record.interference?.disturbed &&
          record.interference.earlierAttempts.length === pass - 1).sort((a, b) => a[0] - b[0])
        for (const [at, [position, previous]] of disturbed.entries()) {
          if (suite.signal.aborted) break
          const expectedSec = Math.max(remeasureSec, suite.measure.expectedCellSec(plan[position].scenario, suite.load))
          if (performance.now() + expectedSec * 1000 > deadlineMs) {
            const left = disturbed.length - at
            index.remeasured.leftForTime = (index.remeasured.leftForTime ?? 0) + left
            hooks.onNote?.(`${left} disturbed cell${left === 1 ? '' : 's'} not measured again: the plan's ` +
              `${Math.round(suite.noisePlan?.budgetSec ?? 0)} s are spent; kept, marked disturbed`)
            break
          }
          if (!budget.take()) break
          const remeasureStartedMs = performance.now()
          const was = /** @type {import('../judging/disturbance.js').InterferenceVerdict} */ (previous.interference)
          hooks.onNote?.(`${previous.sut.label} × ${previous.scenario.name} was disturbed (${was.detail}): measuring it again`)
          const record = await measureOnce(cellAt(position, { keepSut: false }))
          remeasureSec = Math.max(remeasureSec, (performance.now() - remeasureStartedMs) / 1000)
          if (pass === 1) index.remeasured.cells += 1
          // A measurement that did not end ok (interrupted, a SUT that crashed this time) does not replace one that did: the disturbed
          // figure stays, marked, and what happened is said.
          if (record.status !== 'ok' || !record.interference) {
            hooks.onNote?.(`${previous.sut.label} × ${previous.scenario.name}: measured again, ${record.status}` +
              `${record.reason ? ` (${record.reason.split('\n')[0]})` : ''}; the disturbed measurement is kept`)
            continue
          }
          record.interference.earlierAttempts = [
            ...was.earlierAttempts,
            { requestsPerSec: previous.summary?.requestsPerSec.mean ?? 0, detail: was.detail }
          ]
          keep(position, record)
        }
      }
    } finally {
      await session?.end()
    }
  } finally {
    await onSutHost?.remove()
    certificate?.dispose()
    await services.stopAll()
  }
  const records = [...kept].sort((a, b) => a[0] - b[0]).map(([, record]) => record)
  const aggregates = aggregateRuns(records, { seed: suite.seed })
  writeJsonAtomic(join(runDir, AGGREGATES_FILE), { schemaVersion: SCHEMA_VERSION, runId, seed: suite.seed, aggregates })
  index.aggregatesFile = AGGREGATES_FILE
  index.status = suite.signal.aborted ? 'interrupted' : 'complete'
  index.finishedAt = new Date().toISOString()
  writeJsonAtomic(indexPath, index)
  return { runId, runDir, records, aggregates, interrupted: suite.signal.aborted }
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

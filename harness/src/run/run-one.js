// @ts-check
import { countSyscalls, findStrace, STRACE_MISSING } from '../counts/count-syscalls.js'
import { isDynoError } from '../errors.js'
import { findCallgrind } from '../counts/callgrind.js'
import { countKey, readCachedCount, storeCount } from '../counts/count-cache.js'
import {
  countInstructions, countSettingsFor, INSTRUCTION_COUNT_DEFAULTS, INSTRUCTION_COUNT_READY_TIMEOUT_SEC
} from '../counts/count-instructions.js'
import { scenarioLoadPlan } from '../load/load-plan.js'
import { measureLinkRtt } from '../hosts/link-rtt.js'
import { runNodeScript } from '../hosts/run-node-script.js'
import { encodeCountSpec } from '../counts/count-on-host.js'
import { failed, failedWith, invalid, ok, skipped } from '../results/outcome.js'
import { createResultRecord, settleRecord, timedStage } from '../results/result-record.js'
import { describeExit } from '../sut-process/start-sut.js'
import { describeFailedChecks, verifyScenario } from '../verify/verify-scenario.js'
import { attachPhaseResources, samplePhases } from './phase-sampling.js'
import { refusalReason } from '../sut-process/refusal.js'
import { runEnv } from '../env/run-env.js'
import { queryRatio, underLoadProblems } from './under-load-check.js'
import { analyzeWarmup } from './warmup-analysis.js'

/**
 * @typedef {import('../results/outcome.js').Outcome} Outcome
 * @typedef {import('../results/result-record.js').ResultRecord} ResultRecord
 * @typedef {import('../sut-process/start-sut.js').RunningSut} RunningSut
 * @typedef {import('../counts/count-instructions.js').InstructionCount} InstructionCount
 *
 * @typedef {object} RunContext what every run of a suite shares, built once per suite (run-suite.js)
 * @property {string} runId
 * @property {ResultRecord['env']} env
 * @property {import('../results/result-record.js').LoadSettings} load
 * @property {import('../load/engines/engine.js').Engine} engine the run's engine, chosen once (run-command.js): it loads every cell
 * @property {import('../pinning/resolve-pinning.js').PinPlan} pinning where the SUT and the generator run
 * @property {import('../hosts/host.js').Host} sutHost where SUTs and their services run: this machine, or one reached over SSH
 * @property {import('../load/engines/engine.js').LoadHost[] | null} loadHosts `--load-hosts`: the hosts the native engine runs on, each
 *   with its share of the connections; null: the run's engine, here
 * @property {boolean} verify
 * @property {number} readyTimeoutSec
 * @property {number} stopGraceSec
 * @property {number} requestTimeoutSec
 * @property {number} pgPoolSize
 * @property {import('../services/service-manager.js').Services} services the run's data services, started once
 * @property {boolean} ci under CI a missing service fails the run instead of skipping it
 * @property {string | null} countCacheDir where counts are kept and reused (count-cache.js); null: every count is made anew
 * @property {(line: string) => void} note one line for the user, beside the progress
 * @property {AbortSignal} signal
 *
 * @typedef {object} Cell one run of the suite: a SUT on one scenario at one level, one of its repeats
 * @property {import('../suts/resolve-subjects.js').Subject} sut
 * @property {import('@dyno/scenarios').Scenario} scenario
 * @property {number} connections
 * @property {{ index: number, of: number }} repeat
 * @property {string[]} sessionServices the services whose variables the SUT gets, should it be started for this cell: those of every
 *   cell the same process is to serve
 * @property {boolean} keepSut the next cell is the same SUT's: its process stays up for it, if this cell ends ok
 * @property {(event: { stage: string, phase?: string, elapsedSec?: number, requestsPerSec?: number | null }) => void} [onProgress]
 */

/**
 * One (SUT, scenario) run: on the SUT of the session (started for it, or still up from the SUT's previous scenario), verify, warm
 * up, measure (or count). Never throws for a problem of the run itself: every step returns its outcome, and the record is settled
 * once, from the first that ended the run.
 * @param {RunContext} context
 * @param {Cell} cell
 * @param {import('./sut-session.js').SutSession} session
 * @returns {Promise<ResultRecord>}
 */
export async function runOne (context, cell, session) {
  const record = createResultRecord(context, cell)
  return settleRecord(record, await outcomeOf(context, cell, session, record))
}

/** @param {RunContext} context @param {Cell} cell @param {import('./sut-session.js').SutSession} session @param {ResultRecord} record */
async function outcomeOf (context, cell, session, record) {
  const before = notRunnable(context, cell) ?? await servicesMissing(context, cell)
  if (before) return before
  const outcome = await session.serve(cell, record, (running, eventLoopFile) => measureOn(context, cell, running, record, eventLoopFile))
  return (await serviceThatDied(context, cell, outcome)) ?? interruptionsDoing(context.signal, outcome)
}

/**
 * What stops a run before its SUT starts: a SUT skipped here or whose build failed, a scenario it cannot serve.
 * @param {RunContext} context @param {Cell} cell @returns {Outcome | null}
 */
function notRunnable (context, { sut, scenario }) {
  if (sut.skipReason) return skipped(sut.skipReason)
  if (sut.buildFailure) return failed(sut.buildFailure, 'DYNO_ERR_SUT_BUILD')
  const unsupported = sut.unsupportedScenarios[scenario.name]
  if (unsupported) return skipped(`${sut.name} cannot serve ${scenario.name} as the contract says: ${unsupported}`)
  return null
}

/**
 * A service the scenario needs that cannot be had (restarted first when it died in an earlier run): skipped, or failed under CI.
 * @param {RunContext} context @param {Cell} cell @returns {Promise<Outcome | null>}
 */
async function servicesMissing ({ services, ci }, { scenario }) {
  const needed = scenario.services ?? []
  const missing = services.missingFor(scenario) ?? (needed.length > 0 ? await services.ensureHealthy(needed) : null)
  if (!missing) return null
  return ci ? failed(`${missing} (a failure under CI=true)`, 'DYNO_ERR_SERVICE_UNAVAILABLE') : skipped(missing, 'DYNO_ERR_SERVICE_UNAVAILABLE')
}

/**
 * A service of the scenario that died while the SUT used it fails the run, whatever it measured.
 * @param {RunContext} context @param {Cell} cell @param {Outcome} outcome @returns {Promise<Outcome | null>}
 */
async function serviceThatDied ({ services, signal }, { scenario }, outcome) {
  if (outcome.status === 'skipped' || signal.aborted) return null
  for (const name of scenario.services ?? []) {
    const service = services.available.get(name)
    if (service && !(await service.healthy())) return failed(`${name} died during the run; dyno restarts it before the next run`, 'DYNO_ERR_SERVICE_DIED')
  }
  return null
}

/**
 * A second Ctrl-C kills the SUT and the generator at once: what that broke is the interruption's doing.
 * @param {AbortSignal} signal @param {Outcome} outcome @returns {Outcome}
 */
function interruptionsDoing (signal, outcome) {
  if (!signal.aborted || (outcome.status !== 'failed' && outcome.status !== 'invalid') || outcome.errorCode === 'DYNO_ERR_INTERRUPTED') return outcome
  return failed(`interrupted by ${String(signal.reason)}: ${outcome.reason}`, 'DYNO_ERR_INTERRUPTED')
}

/** @param {RunContext} context @param {Cell} cell @returns {Record<string, string>} what the SUT is started with */
function sutEnv (context, { scenario }) {
  return { ...runEnv(context.runId), ...context.services.envFor(scenario.services ?? []), PG_POOL_SIZE: String(context.pgPoolSize) }
}

/**
 * The part of a run that needs the SUT up: refusal, verification, then load, or a count.
 * @param {RunContext} context @param {Cell} cell @param {RunningSut} running @param {ResultRecord} record @param {string} eventLoopFile
 * @returns {Promise<Outcome>}
 */
async function measureOn (context, cell, running, record, eventLoopFile) {
  const refusal = refusalReason(running.ready)
  if (refusal) return skipped(refusal, 'DYNO_ERR_SUT_REFUSED')
  const verification = context.verify ? await verified(context, cell, running, record) : null
  if (verification) return verification
  if (context.signal.aborted) return failed(`interrupted by ${String(context.signal.reason)} before load started`, 'DYNO_ERR_INTERRUPTED')
  if (context.load.measure === 'instructions') {
    // The count starts the SUT anew under callgrind: the verified one is stopped first, so it holds no cpu of the count.
    await timedStage(record, 'stop', () => running.stop(context.stopGraceSec * 1000))
    return timedStage(record, 'count', () => counted(context, cell, record))
  }
  return loaded(context, cell, running, record, eventLoopFile)
}

/** @param {RunContext} context @param {Cell} cell @param {RunningSut} running @param {ResultRecord} record @returns {Promise<Outcome | null>} */
async function verified (context, { scenario, onProgress }, running, record) {
  onProgress?.({ stage: 'verifying' })
  record.verification = await timedStage(record, 'verify', () =>
    verifyScenario({ host: running.address, port: running.port, timeoutMs: context.requestTimeoutSec * 1000 }, scenario))
  if (record.verification.passed) return null
  return invalid(`DYNO_ERR_RESPONSE_MISMATCH: ${describeFailedChecks(record.verification)}`, 'DYNO_ERR_RESPONSE_MISMATCH')
}

/**
 * Load from the cell's engine, warm-up then the measured phase, with the SUT's and the generator's resources sampled per phase;
 * then the checks of what came back (the SUT still up, every answer right, one query per request).
 * @param {RunContext} context @param {Cell} cell @param {RunningSut} running @param {ResultRecord} record @param {string} eventLoopFile
 * @returns {Promise<Outcome>}
 */
async function loaded (context, cell, running, record, eventLoopFile) {
  const { scenario, connections } = cell
  const { load, engine, pinning, signal } = context
  const counter = queryCounter(context, cell)
  const queriesBefore = counter ? await counter.count() : 0
  const threads = engine.threads(connections, pinning.generatorCpus, load.wrkThreads)
  // A SUT across a network: the link's round trip is measured, to read its latency against.
  if (!context.sutHost.sharesNetwork) {
    try {
      record.links = await timedStage(record, 'link', () => roundTrips(context, running))
    } catch (error) {
      if (!isDynoError(error)) throw error
      return failedWith(error)
    }
  }
  const plan = scenarioLoadPlan({ address: running.address, remoteHost: !context.sutHost.sharesNetwork, port: running.port, scenario, connections, ...load })
  const sampling = samplePhases({
    phases: plan.phases.map((phase) => phase.name),
    sutPgid: running.pid,
    sutReadGroup: running.readGroup,
    generatorPids: () => started.pids,
    sutCpus: pinning.sutCpus,
    generatorCpus: pinning.generatorCpus,
    sutHere: context.sutHost.sharesProcesses
  })
  const hooks = {
    env: runEnv(context.runId),
    onProgress: (/** @type {{ phase: string, elapsedSec: number, requestsPerSec: number | null }} */ progress) =>
      cell.onProgress?.({ stage: 'load', ...progress }),
    // Deferred: wrk starts the next phase's process right after reporting, and the next window samples it.
    onPhase: () => setImmediate(() => sampling.phaseDone())
  }
  // `--load-hosts` was refused before the run for an engine that cannot spread over hosts.
  const started = context.loadHosts && engine.startOnHosts
    ? engine.startOnHosts(plan, context.loadHosts, hooks)
    : engine.start(plan, { threads, cpus: pinning.generatorCpus, ...hooks })
  sampling.start()
  const stopLoad = () => started.stop()
  signal.addEventListener('abort', stopLoad, { once: true })
  running.exited.then(stopLoad)
  let outcome
  /** @type {ReturnType<ReturnType<typeof samplePhases>['finish']>} */
  let reports = {}
  try {
    outcome = await timedStage(record, 'load', () => started.done)
  } catch (error) {
    if (!isDynoError(error)) throw error
    return failedWith(error)
  } finally {
    signal.removeEventListener('abort', stopLoad)
    reports = sampling.finish()
  }
  record.warmup = outcome.phases.warmup ?? null
  record.summary = outcome.phases.measure ?? null
  attachPhaseResources({ warmup: record.warmup, measure: record.summary }, reports, {
    generatorCpus: pinning.generatorCpus, sutCpus: pinning.sutCpus, generatorThreads: threads, eventLoopFile
  })
  // Load from several hosts: each host's engine is judged on its own; one that set the pace marks the phase.
  for (const summary of [record.warmup, record.summary]) {
    if (summary?.loadHosts?.some((share) => share.generatorBound)) summary.generatorBound = true
  }
  if (record.summary?.timeseries) record.warmupAnalysis = analyzeWarmup(record.warmup?.timeseries ?? [], record.summary.timeseries)

  if (running.hasExited()) {
    const exit = await running.exited
    return failed(`the SUT exited during load (${describeExit(exit.code, exit.signal)}); last stderr lines:\n${running.stderr.format()}`,
      'DYNO_ERR_SUT_EXITED')
  }
  if (signal.aborted) {
    return failed(`interrupted by ${String(signal.reason)} during ${record.summary ? 'measurement' : 'warmup'}; the partial figures are kept`,
      'DYNO_ERR_INTERRUPTED')
  }
  const problems = underLoadProblems(outcome.phases, scenario.expect.status)
  if (problems) return invalid(problems, 'DYNO_ERR_UNEXPECTED_UNDER_LOAD')
  if (!counter) return ok()
  record.serverCheck = queryRatio(counter.service, (await counter.count()) - queriesBefore, outcome.phases, { connections, pipelining: load.pipelining })
  if (record.serverCheck.withinBounds) return ok()
  return invalid(`DYNO_ERR_QUERY_RATIO: ${counter.service} counted ${record.serverCheck.queries} queries ` +
    `for ${record.serverCheck.requests} responses (${record.serverCheck.queriesPerRequest} per request; one per request is the contract): ` +
    'the SUT does not do the scenario\'s work on every request', 'DYNO_ERR_QUERY_RATIO')
}

/**
 * A count on the SUT's own host (`--sut-host`): made there by count-on-host.js, its requests from that host's loopback, never cached
 * here (the host's runtime is not this machine's).
 * @param {RunContext} context @param {Cell} cell @param {ResultRecord} record
 * @param {{ warmupRequests: number, windowRequests: number, windows: number, concurrency: number }} count
 * @returns {Promise<Outcome>}
 */
async function countedOnHost (context, cell, record, count) {
  if (cell.sut.runtime.kind !== 'node') {
    return skipped(`counts on a SUT host of its own are made for Node SUTs (${cell.sut.name} runs on ${cell.sut.runtime.kind})`)
  }
  cell.onProgress?.({ stage: `counting instructions on ${context.sutHost.name}` })
  // The spec holds the SUT's environment (DATABASE_URL, REDIS_URL and their secrets): it travels on the script's stdin, not its arguments.
  const spec = encodeCountSpec({
    sut: cell.sut.name,
    scenario: cell.scenario.name,
    env: sutEnv(context, cell),
    ...count,
    readyTimeoutSec: Math.max(context.readyTimeoutSec, INSTRUCTION_COUNT_READY_TIMEOUT_SEC)
  })
  const { stdout, stderr, lost } = await runNodeScript(context.sutHost, 'harness/src/counts/count-on-host.js', [],
    { label: `the count of ${cell.sut.name}`, signal: context.signal, stdinText: `${spec}\n` })
  if (lost) return failed(`${lost}; the figures measured before are kept`, 'DYNO_ERR_HOST_LOST')
  if (context.signal.aborted) return failed(`interrupted by ${String(context.signal.reason)} while counting instructions`, 'DYNO_ERR_INTERRUPTED')
  const said = stdout.trim().split('\n').pop() ?? ''
  /** @type {{ count?: InstructionCount, error?: { code: import('../errors.js').ErrorCode, message: string } }} */
  let answer
  try {
    answer = JSON.parse(said)
  } catch {
    return failed(`the count on ${context.sutHost.name} ended without a result; its last lines:\n${stderr.trim().split('\n').slice(-10).join('\n')}`,
      'DYNO_ERR_SUT_EXITED')
  }
  if (!answer.count) return failed(`on ${context.sutHost.name}: ${answer.error?.message}`, answer.error?.code ?? 'DYNO_ERR_SUT_EXITED')
  record.instructions = answer.count
  const { checks } = answer.count
  if (checks.mismatches + checks.unexpectedStatus + checks.errors > 0) {
    return invalid(`while counting instructions: ${checks.mismatches} wrong bodies, ${checks.unexpectedStatus} unexpected statuses, ` +
      `${checks.errors} failed requests of ${checks.responses + checks.errors}`, 'DYNO_ERR_UNEXPECTED_UNDER_LOAD')
  }
  return ok()
}

/**
 * The round trip from each load host (this machine, unless `--load-hosts` says otherwise) to the SUT on its host, one after another.
 * @param {RunContext} context @param {RunningSut} running @returns {Promise<import('../hosts/link-rtt.js').LinkRtt[]>}
 */
async function roundTrips (context, running) {
  const target = { address: running.address, port: running.port, to: context.sutHost.name }
  const links = []
  for (const { host } of context.loadHosts ?? []) links.push(await host.measureRtt(target))
  if (!context.loadHosts) links.push(await measureLinkRtt({ ...target, from: 'local' }))
  return links
}

/**
 * The server-side count of the scenario's queries, where its service keeps one (Redis, PostgreSQL).
 * @param {RunContext} context @param {Cell} cell @returns {{ service: string, count: () => Promise<number> } | null}
 */
function queryCounter ({ services }, { scenario }) {
  const service = scenario.queryCountedBy ? services.available.get(scenario.queryCountedBy) : undefined
  return service?.queryCount ? { service: service.name, count: service.queryCount } : null
}

/**
 * `--measure instructions`: the SUT counted under callgrind on a fresh launch, window by window (count-instructions.js); every
 * response of the count is checked as under load.
 * @param {RunContext} context @param {Cell} cell @param {ResultRecord} record @returns {Promise<Outcome>}
 */
async function counted (context, cell, record) {
  const { load, signal, countCacheDir } = context
  const count = {
    warmupRequests: /** @type {number} */ (load.countWarmupRequests),
    windowRequests: /** @type {number} */ (load.countWindowRequests),
    windows: /** @type {number} */ (load.countWindows),
    concurrency: INSTRUCTION_COUNT_DEFAULTS.concurrency,
    settings: countSettingsFor(cell.sut)
  }
  // A SUT on another machine is counted there, under that machine's valgrind.
  if (!context.sutHost.sharesProcesses) return countedOnHost(context, cell, record, count)
  const callgrind = findCallgrind()
  const { key, inputs } = countCacheDir && callgrind ? countKey({ sut: cell.sut, scenario: cell.scenario, valgrind: callgrind.valgrind, count }) : {}
  const cached = countCacheDir && key ? readCachedCount(countCacheDir, key, context.note) : null
  if (cached) {
    record.instructions = { ...cached.instructions, cachedFrom: { runId: cached.runId, countedAt: cached.countedAt, key: cached.key } }
    return ok()
  }
  cell.onProgress?.({ stage: 'counting instructions' })
  try {
    record.instructions = await countInstructions({
      sut: cell.sut,
      scenario: cell.scenario,
      env: sutEnv(context, cell),
      ...count,
      readyTimeoutSec: Math.max(context.readyTimeoutSec, INSTRUCTION_COUNT_READY_TIMEOUT_SEC),
      signal,
      // Unpinned: what a count counts does not depend on the cpu it runs on, and counts made at once (--count-jobs, or both sides
      // of compare-commits, each making one at a time) must not be held to the same one.
      cpus: null
    })
  } catch (error) {
    if (!isDynoError(error)) throw error
    return failedWith(error)
  }
  if (signal.aborted) return failed(`interrupted by ${String(signal.reason)} while counting instructions`, 'DYNO_ERR_INTERRUPTED')
  // The system calls of the same request sequence, counted on the SUT without valgrind (count-syscalls.js says why).
  if (findStrace()) {
    cell.onProgress?.({ stage: 'counting system calls' })
    try {
      const instructions = /** @type {NonNullable<typeof record.instructions>} */ (record.instructions)
      instructions.syscalls = await countSyscalls({
        sut: cell.sut,
        scenario: cell.scenario,
        env: sutEnv(context, cell),
        ...count,
        readyTimeoutSec: Math.max(context.readyTimeoutSec, INSTRUCTION_COUNT_READY_TIMEOUT_SEC),
        signal
      })
    } catch (error) {
      if (!isDynoError(error)) throw error
      return failedWith(error)
    }
  } else if (context.ci) {
    return failed(`${STRACE_MISSING}; under CI=true every count counts them`, 'DYNO_ERR_LOAD_GENERATOR')
  } else {
    record.instructions.syscalls = null
    context.note(STRACE_MISSING)
  }
  if (signal.aborted) return failed(`interrupted by ${String(signal.reason)} while counting system calls`, 'DYNO_ERR_INTERRUPTED')
  const { checks } = record.instructions
  if (checks.mismatches + checks.unexpectedStatus + checks.errors > 0) {
    return invalid(`while counting instructions: ${checks.mismatches} wrong bodies, ${checks.unexpectedStatus} unexpected statuses, ` +
      `${checks.errors} failed requests of ${checks.responses + checks.errors}`, 'DYNO_ERR_UNEXPECTED_UNDER_LOAD')
  }
  if (countCacheDir && key && inputs) {
    storeCount(countCacheDir, key, { inputs, runId: context.runId, countedAt: new Date().toISOString(), instructions: record.instructions })
  }
  return ok()
}

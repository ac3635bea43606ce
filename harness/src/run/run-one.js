// @ts-check
import { DEFAULTS } from '../defaults.js'
import { isDynoError } from '../errors.js'
import { scenarioLoadPlan } from '../load/load-plan.js'
import { startLoad } from '../load/run-load.js'
import { startWrkLoad } from '../load/wrk-engine.js'
import { startNativeLoad } from '../load/native-engine.js'
import { countInstructions, INSTRUCTION_COUNT_DEFAULTS, INSTRUCTION_COUNT_READY_TIMEOUT_SEC } from '../instructions/count-instructions.js'
import { createResultRecord, settleRecord } from '../results/result-record.js'
import { describeExit, startSut } from '../sut-process/start-sut.js'
import { describeFailedChecks, verifyScenario } from '../verify/verify-scenario.js'
import { refusalReason } from './refusal.js'
import { queryRatio, underLoadProblems } from './under-load-check.js'
import { runEnv } from './run-env.js'
import { analyzeWarmup } from './warmup-analysis.js'
import { attachPhaseResources, samplePhases } from './phase-sampling.js'
import { randomUUID } from 'node:crypto'
import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * @typedef {object} RunContext
 * @property {string} runId
 * @property {import('../results/result-record.js').ResultRecord['env']} env
 * @property {import('../suts/resolve-subjects.js').Subject} sut
 * @property {import('@dyno/scenarios').Scenario} scenario
 * @property {import('../results/result-record.js').LoadSettings} load
 * @property {{ index: number, of: number }} [repeat]
 * @property {boolean} verify
 * @property {number} readyTimeoutSec
 * @property {number} stopGraceSec
 * @property {number} requestTimeoutSec
 * @property {AbortSignal} signal
 * @property {Record<string, string>} [serviceEnv] what the SUT needs to reach the scenario's services
 * @property {{ service: string, count: () => Promise<number> } | null} [queryCounter] the server-side count of the scenario's queries
 * @property {string | null} [unavailable] why a service the scenario needs cannot be had
 * @property {boolean} [ci] under CI a missing service fails the run instead of skipping it
 * @property {import('../pinning/resolve-pinning.js').PinPlan} pinning where the SUT and the generator run
 * @property {(event: { stage: string, phase?: string, elapsedSec?: number, requestsPerSec?: number }) => void} [onProgress]
 */

/**
 * One (SUT, scenario) run: start the SUT on its own, verify it, warm up, measure, stop it. Never
 * throws for a problem of the run itself: every outcome is a record with a status and a reason.
 * @param {RunContext} context
 * @returns {Promise<import('../results/result-record.js').ResultRecord>}
 */
export async function runOne (context) {
  const { sut, signal } = context
  const record = createResultRecord(context)
  if (sut.skipReason) return settleRecord(record, 'skipped', sut.skipReason)
  if (sut.buildFailure) return settleRecord(record, 'failed', sut.buildFailure, 'DYNO_ERR_SUT_BUILD')
  const unsupported = sut.unsupportedScenarios[context.scenario.name]
  if (unsupported) return settleRecord(record, 'skipped', `${sut.name} cannot serve ${context.scenario.name} as the contract says: ${unsupported}`)
  if (context.unavailable) {
    return settleRecord(record, context.ci ? 'failed' : 'skipped', `${context.unavailable}${context.ci ? ' (a failure under CI=true)' : ''}`,
      'DYNO_ERR_SERVICE_UNAVAILABLE')
  }

  context.onProgress?.({ stage: 'starting' })
  const eventLoopFile = join(tmpdir(), `dyno-event-loop-${randomUUID()}.jsonl`)
  let running
  try {
    running = await startSut(sut, {
      readyTimeoutSec: context.readyTimeoutSec,
      stopGraceSec: context.stopGraceSec,
      signal,
      env: { ...runEnv(context.runId), ...context.serviceEnv },
      cpus: context.pinning.sutCpus,
      eventLoopFile
    })
  } catch (error) {
    rmSync(eventLoopFile, { force: true })
    if (!isDynoError(error)) throw error
    record.sutProcess.stderrTail = /** @type {string[]} */ (error.details.stderrTail ?? [])
    return settleRecord(record, 'failed', error.message, error.code)
  }
  record.sutProcess.pid = running.pid
  record.sutProcess.ready = running.ready
  try {
    await measure(context, running, record, eventLoopFile)
    // A second Ctrl-C kills the SUT and the generator at once: what that broke is the interruption's doing.
    if (signal.aborted && (record.status === 'failed' || record.status === 'invalid') && record.errorCode !== 'DYNO_ERR_INTERRUPTED') {
      settleRecord(record, 'failed', `interrupted by ${String(signal.reason)}: ${record.reason}`, 'DYNO_ERR_INTERRUPTED')
    }
  } finally {
    try {
      const { forced } = await running.stop(context.stopGraceSec * 1000)
      record.sutProcess.forcedKill = forced
    } catch (error) {
      settleRecord(record, 'failed', /** @type {Error} */ (error).message, isDynoError(error) ? error.code : null)
    }
    const exit = await running.exited
    record.sutProcess.exit = { code: exit.code, signal: exit.signal }
    record.sutProcess.stderrTail = running.stderr.snapshot()
    rmSync(eventLoopFile, { force: true }) // after the exit: the preload writes a last line as the SUT ends
  }
  return record
}

/**
 * The part of a run that needs the SUT up: refusal, verification, load, and the final verdict.
 * @param {RunContext} context
 * @param {import('../sut-process/start-sut.js').RunningSut} running
 * @param {import('../results/result-record.js').ResultRecord} record
 * @param {string} eventLoopFile where the SUT's event-loop preload writes
 */
async function measure (context, running, record, eventLoopFile) {
  const { scenario, signal } = context
  const refusal = refusalReason(running.ready)
  if (refusal) return settleRecord(record, 'skipped', refusal, 'DYNO_ERR_SUT_REFUSED')

  if (context.verify) {
    context.onProgress?.({ stage: 'verifying' })
    record.verification = await verifyScenario({ host: '127.0.0.1', port: running.port, timeoutMs: context.requestTimeoutSec * 1000 }, scenario)
    if (!record.verification.passed) {
      return settleRecord(record, 'invalid', `DYNO_ERR_RESPONSE_MISMATCH: ${describeFailedChecks(record.verification)}`, 'DYNO_ERR_RESPONSE_MISMATCH')
    }
  }
  if (signal.aborted) return settleRecord(record, 'failed', 'interrupted before load started', 'DYNO_ERR_INTERRUPTED')
  if (context.load.measure === 'instructions') return countRun(context, record)

  const queriesBefore = context.queryCounter ? await context.queryCounter.count() : 0

  const plan = scenarioLoadPlan({ port: running.port, scenario, ...context.load })
  const phaseNames = plan.phases.map((phase) => phase.name)
  const sampling = samplePhases({ phases: phaseNames, sutPgid: running.pid, generatorPids: () => load.pids })
  const generatorThreads = engineThreads(context)
  const startEngine = context.load.engine === 'wrk'
    ? (/** @type {import('../load/load-plan.js').LoadPlan} */ wrkPlan, /** @type {any} */ hooks) =>
        startWrkLoad(wrkPlan, { ...hooks, threads: generatorThreads })
    : context.load.engine === 'native'
      ? (/** @type {import('../load/load-plan.js').LoadPlan} */ nativePlan, /** @type {any} */ hooks) =>
          startNativeLoad(nativePlan, { ...hooks, threads: generatorThreads })
      : startLoad
  const load = startEngine(plan, {
    onProgress: (progress) => context.onProgress?.({ stage: 'load', ...progress }),
    // Deferred: wrk starts the next phase's process right after reporting, and the next window samples it.
    onPhase: () => setImmediate(() => sampling.phaseDone()),
    env: runEnv(context.runId),
    cpus: context.pinning.generatorCpus
  })
  sampling.start()
  const stopLoad = () => load.stop()
  signal.addEventListener('abort', stopLoad, { once: true })
  running.exited.then(stopLoad)
  let outcome
  /** @type {ReturnType<ReturnType<typeof samplePhases>['finish']>} */
  let reports = {}
  try {
    outcome = await load.done
  } catch (error) {
    if (!isDynoError(error)) throw error
    return settleRecord(record, 'failed', error.message, error.code)
  } finally {
    signal.removeEventListener('abort', stopLoad)
    reports = sampling.finish()
  }
  record.warmup = outcome.phases.warmup ?? null
  record.summary = outcome.phases.measure ?? null
  attachPhaseResources({ warmup: record.warmup, measure: record.summary }, reports, {
    generatorCpus: context.pinning.generatorCpus, sutCpus: context.pinning.sutCpus, generatorThreads, eventLoopFile
  })
  if (record.summary?.timeseries) record.warmupAnalysis = analyzeWarmup(record.warmup?.timeseries ?? [], record.summary.timeseries)

  if (running.hasExited()) {
    const exit = await running.exited
    return settleRecord(record, 'failed',
      `the SUT exited during load (${describeExit(exit.code, exit.signal)}); last stderr lines:\n${running.stderr.format()}`, 'DYNO_ERR_SUT_EXITED')
  }
  if (signal.aborted) {
    return settleRecord(record, 'failed',
      `interrupted by ${String(signal.reason ?? 'a signal')} during ${record.summary ? 'measurement' : 'warmup'}; the partial figures are kept`,
      'DYNO_ERR_INTERRUPTED')
  }
  const problems = underLoadProblems(outcome.phases, scenario.expect.status)
  if (problems) return settleRecord(record, 'invalid', problems, 'DYNO_ERR_UNEXPECTED_UNDER_LOAD')
  if (context.queryCounter) {
    record.serverCheck = queryRatio(context.queryCounter.service, (await context.queryCounter.count()) - queriesBefore, outcome.phases, context.load)
    if (!record.serverCheck.withinBounds) {
      return settleRecord(record, 'invalid',
        `DYNO_ERR_QUERY_RATIO: ${context.queryCounter.service} counted ${record.serverCheck.queries} queries ` +
        `for ${record.serverCheck.requests} responses (${record.serverCheck.queriesPerRequest} per request; one per request is the contract): ` +
        'the SUT does not do the scenario\'s work on every request', 'DYNO_ERR_QUERY_RATIO')
    }
  }
  return settleRecord(record, 'ok', null)
}

/**
 * The threads that drive load: wrk its `--wrk-threads`; autocannon (and the open-model schedule) one process
 * per generator cpu, the native engine one thread per generator cpu (one when unpinned), never more than the
 * connections.
 * @param {RunContext} context
 */
function engineThreads ({ load, pinning }) {
  if (load.engine === 'wrk') return load.wrkThreads ?? DEFAULTS.wrkThreads
  return Math.max(1, Math.min(pinning.generatorCpus?.length ?? 1, load.connections))
}

/**
 * `--measure instructions`: the verified SUT is stopped, then counted under callgrind on a fresh launch, window by window
 * (count-instructions.js); every response of the count is checked as under load.
 * @param {RunContext} context
 * @param {import('../results/result-record.js').ResultRecord} record
 */
async function countRun (context, record) {
  context.onProgress?.({ stage: 'counting instructions' })
  try {
    record.instructions = await countInstructions({
      sut: context.sut,
      scenario: context.scenario,
      env: { ...runEnv(context.runId), ...context.serviceEnv },
      warmupRequests: context.load.countWarmupRequests ?? INSTRUCTION_COUNT_DEFAULTS.warmupRequests,
      windowRequests: context.load.countWindowRequests ?? INSTRUCTION_COUNT_DEFAULTS.windowRequests,
      windows: context.load.countWindows ?? INSTRUCTION_COUNT_DEFAULTS.windows,
      concurrency: INSTRUCTION_COUNT_DEFAULTS.concurrency,
      readyTimeoutSec: Math.max(context.readyTimeoutSec, INSTRUCTION_COUNT_READY_TIMEOUT_SEC),
      signal: context.signal,
      cpus: context.pinning.sutCpus
    })
  } catch (error) {
    if (!isDynoError(error)) throw error
    return settleRecord(record, 'failed', error.message, error.code)
  }
  if (context.signal.aborted) {
    return settleRecord(record, 'failed', `interrupted by ${String(context.signal.reason)} while counting instructions`, 'DYNO_ERR_INTERRUPTED')
  }
  const { checks } = record.instructions
  if (checks.mismatches + checks.unexpectedStatus + checks.errors > 0) {
    return settleRecord(record, 'invalid', `while counting instructions: ${checks.mismatches} wrong bodies, ${checks.unexpectedStatus} unexpected statuses, ` +
      `${checks.errors} failed requests of ${checks.responses + checks.errors}`, 'DYNO_ERR_UNEXPECTED_UNDER_LOAD')
  }
  return settleRecord(record, 'ok', null)
}

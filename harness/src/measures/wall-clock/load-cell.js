// @ts-check
// A cell under load: the run's engine drives the SUT through warm-up and the measured phase while the SUT's and the generator's
// resources are sampled per phase; then what came back is judged (the SUT still up, every answer right, one query per request).
import { isDynoError } from '../../platform/errors.js'
import { measureLinkRtt } from '../../platform/hosts/link-rtt.js'
import { scenarioLoadPlan } from '../../load/load-plan.js'
import { failed, failedWith, invalid, ok } from '../../records/outcome.js'
import { timedStage } from '../cell-context.js'
import { describeExit } from '../../subjects/sut-process/start-sut.js'
import { runEnv } from '../../platform/env/run-env.js'
import { queryRatio, underLoadProblems } from '../../judging/under-load-check.js'
import { analyzeWarmup } from '../../judging/warmup-analysis.js'
import { classifyCell } from '../../judging/cell-classification.js'
import { attachPhaseResources, samplePhases } from './phase-sampling.js'

/**
 * @typedef {import('../../records/outcome.js').Outcome} Outcome
 * @typedef {import('../../records/result-record.js').ResultRecord} ResultRecord
 * @typedef {import('../../subjects/sut-process/start-sut.js').RunningSut} RunningSut
 * @typedef {import('../cell-context.js').RunContext} RunContext
 * @typedef {import('../cell-context.js').Cell} Cell
 */

/**
 * Load from the cell's engine, warm-up then the measured phase, with the SUT's and the generator's resources sampled per phase;
 * then the checks of what came back (the SUT still up, every answer right, one query per request).
 * @param {RunContext} context @param {Cell} cell @param {RunningSut} running @param {ResultRecord} record
 * @param {import('../cell-context.js').SutProbes} probes
 * @returns {Promise<Outcome>}
 */
export async function loadCell (context, cell, running, record, probes) {
  const { scenario, connections } = cell
  const { load, engine, pinning, signal } = context
  const counter = queryCounter(context, cell)
  const queriesBefore = counter ? await counter.count() : 0
  const threads = engine.threads(connections, pinning.generatorCpus, engine.settingsOf(load))
  // A SUT across a network: the link's round trip is measured, to read its latency against.
  if (!context.sutHost.sharesNetwork) {
    try {
      record.links = await timedStage(record, 'link', () => roundTrips(context, running, cell.scenario))
    } catch (error) {
      if (!isDynoError(error)) throw error
      return failedWith(error)
    }
  }
  const plan = scenarioLoadPlan({
    address: running.address,
    remoteHost: !context.sutHost.sharesNetwork,
    port: running.port,
    scenario,
    connections,
    ...load,
    trust: context.certificate ?? null
  })
  const sampling = samplePhases({
    phases: plan.phases.map((phase) => phase.name),
    sutPgid: running.pid,
    sutReadGroup: running.readGroup,
    generatorPids: () => started.pids,
    sutCpus: pinning.sutCpus,
    generatorCpus: pinning.generatorCpus,
    sutHere: context.sutHost.sharesProcesses,
    censusArgs: context.censusArgs
  })
  const hooks = {
    env: runEnv(context.runId),
    onProgress: (/** @type {{ phase: string, elapsedSec: number, requestsPerSec: number | null }} */ progress) =>
      cell.onProgress?.({ stage: 'load', ...progress }),
    // Deferred: wrk starts the next phase's process right after reporting, and the next window samples it.
    onPhase: () => setImmediate(() => sampling.phaseDone()),
    // Deferred as onPhase is, so that a clock read with the report of the phase before it restarts the next phase's window.
    onClock: () => setImmediate(() => sampling.clockStarted())
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
    generatorCpus: pinning.generatorCpus, sutCpus: pinning.sutCpus, generatorThreads: threads, probes
  })
  // Load from several hosts: each host's engine is judged on its own; one that set the pace marks the phase.
  for (const summary of [record.warmup, record.summary]) {
    if (summary?.loadHosts?.some((share) => share.generatorBound)) summary.generatorBound = true
  }
  if (record.summary?.timeseries) record.warmupAnalysis = analyzeWarmup(record.warmup?.timeseries ?? [], record.summary.timeseries)
  if (record.summary?.timeseries) {
    record.classification = classifyCell({
      warmup: record.warmup?.timeseries ?? [],
      measure: record.summary.timeseries,
      windowMs: load.windowMs,
      runtime: {
        warmup: record.warmup ? (record.warmup.runtimeEvents?.windows ?? null) : [],
        measure: record.summary.runtimeEvents?.windows ?? null
      }
    })
  }

  if (running.hasExited()) {
    const exit = await running.exited
    return failed(`the SUT exited during load (${describeExit(exit.code, exit.signal)}); last stderr lines:\n${running.stderr.format()}`,
      'DYNO_ERR_SUT_EXITED')
  }
  if (signal.aborted) {
    return failed(`interrupted by ${String(signal.reason)} during ${record.summary ? 'measurement' : 'warmup'}; the partial ` +
      'figures are kept',
    'DYNO_ERR_INTERRUPTED')
  }
  const problems = underLoadProblems(outcome.phases, scenario.expect.status)
  if (problems) return invalid(problems, 'DYNO_ERR_UNEXPECTED_UNDER_LOAD')
  if (!counter) return ok()
  record.serverCheck = queryRatio(counter.service, (await counter.count()) - queriesBefore, outcome.phases, {
    connections,
    pipelining: load.pipelining
  })
  if (record.serverCheck.withinBounds) return ok()
  return invalid(`DYNO_ERR_QUERY_RATIO: ${counter.service} counted ${record.serverCheck.queries} queries ` +
    `for ${record.serverCheck.requests} responses (${record.serverCheck.queriesPerRequest} per request; one per request is the ` +
      'contract): ' +
    'the SUT does not do the scenario\'s work on every request', 'DYNO_ERR_QUERY_RATIO')
}

/**
 * The round trip from each load host (this machine, unless `--load-hosts` says otherwise) to the SUT on its host, one after another.
 * @param {RunContext} context @param {RunningSut} running @param {import('@dyno/scenarios').Scenario} scenario
 * @returns {Promise<import('../../platform/hosts/link-rtt.js').LinkRtt[]>}
 */
async function roundTrips (context, running, scenario) {
  // A port that speaks anything but HTTP/1.1 in cleartext is timed by its TCP set-up (link-rtt.js).
  const method = /** @type {'http' | 'tcp'} */ (scenario.protocol === 'http1' ? 'http' : 'tcp')
  const target = { address: running.address, port: running.port, to: context.sutHost.name, method }
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

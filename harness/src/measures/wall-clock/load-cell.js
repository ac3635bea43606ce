// @ts-check
// A cell under load: the run's engine drives the SUT through warm-up and the measured phase while the SUT's and the generator's
// resources are sampled per phase; then what came back is judged (the SUT still up, every answer right, one query per request).
import { isDynoError } from '../../platform/errors.js'
import { measureLinkRtt } from '../../platform/hosts/link-rtt.js'
import { scenarioLoadPlan } from '../../load/load-plan.js'
import { runLoadedPhase } from '../../load/loaded-phase.js'
import { failed, failedWith, invalid, ok } from '../../records/outcome.js'
import { cellLoad, timedStage } from '../cell-context.js'
import { describeExit } from '../../subjects/sut-process/start-sut.js'
import { nothingAnswered, queryRatio, underLoadProblems } from '../../judging/under-load-check.js'
import { analyzeWarmup } from '../../judging/warmup-analysis.js'
import { classifyCell } from '../../judging/cell-classification.js'

/**
 * @typedef {import('../../records/outcome.js').Outcome} Outcome
 * @typedef {import('../../records/result-record.js').ResultRecord} ResultRecord
 * @typedef {import('../../subjects/sut-process/start-sut.js').RunningSut} RunningSut
 * @typedef {import('../cell-context.js').RunContext} RunContext
 * @typedef {import('../cell-context.js').Cell} Cell
 * @typedef {import('../../load/loaded-phase.js').LoadedOutcome['phases']} Phases
 * @typedef {{ service: string, count: () => Promise<number> }} QueryCounter
 */

/**
 * Load from the cell's engine, warm-up then the measured phase, with the SUT's and the generator's resources sampled per phase;
 * then the checks of what came back (the SUT still up, every answer right, one query per request).
 * @param {RunContext} context @param {Cell} cell @param {RunningSut} running @param {ResultRecord} record
 * @param {import('../cell-context.js').SutProbes} probes
 * @returns {Promise<Outcome>}
 */
export async function loadCell (context, cell, running, record, probes) {
  const counter = queryCounter(context, cell)
  const queriesBefore = counter ? await counter.count() : 0
  let phases
  try {
    // A SUT across a network: the link's round trip is measured, to read its latency against.
    if (!context.sutHost.sharesNetwork) record.links = await timedStage(record, 'link', () => roundTrips(context, running, cell.scenario))
    phases = await timedStage(record, 'load', async () => (await runLoadedPhase({
      ...cellLoad(context, running, probes),
      plan: cellPlan(context, cell, running),
      onProgress: (progress) => cell.onProgress?.({ stage: 'load', ...progress })
    })).phases)
  } catch (error) {
    if (!isDynoError(error)) throw error
    return failedWith(error)
  }
  recordPhases(record, phases, context.load.windowMs)
  const cutShort = await cutShortOutcome(context, running, record)
  if (cutShort) return cutShort
  const problems = underLoadProblems(phases, cell.scenario.expect.status) ?? nothingAnswered(phases)
  if (problems) return invalid(problems, 'DYNO_ERR_UNEXPECTED_UNDER_LOAD')
  if (!counter) return ok()
  const queries = (await counter.count()) - queriesBefore
  return queryRatioOutcome(record, counter.service, queries, phases, { connections: cell.connections, pipelining: context.load.pipelining })
}

/**
 * The cell's load: its scenario at its connections, on the run's load settings (warm-up, then the measured phase).
 * @param {RunContext} context @param {Cell} cell @param {RunningSut} running
 */
function cellPlan (context, { scenario, connections }, running) {
  return scenarioLoadPlan({
    address: running.address,
    remoteHost: !context.sutHost.sharesNetwork,
    port: running.port,
    scenario,
    connections,
    ...context.load,
    trust: context.certificate ?? null
  })
}

/**
 * Keeps the phases in the record, and with a measured series, when its latency settled and how the cell's series is classified.
 * @param {ResultRecord} record @param {Phases} phases @param {number} windowMs
 */
function recordPhases (record, phases, windowMs) {
  record.warmup = phases.warmup ?? null
  record.summary = phases.measure ?? null
  if (!record.summary?.timeseries) return
  record.warmupAnalysis = analyzeWarmup(record.warmup?.timeseries ?? [], record.summary.timeseries)
  record.classification = classifyCell({
    warmup: record.warmup?.timeseries ?? [],
    measure: record.summary.timeseries,
    windowMs,
    runtime: {
      warmup: record.warmup ? (record.warmup.runtimeEvents?.windows ?? null) : [],
      measure: record.summary.runtimeEvents?.windows ?? null
    }
  })
}

/**
 * @param {RunContext} context @param {RunningSut} running @param {ResultRecord} record
 * @returns {Promise<Outcome | null>} why the load did not run to its end (the SUT exited, the run was interrupted); null: it did
 */
async function cutShortOutcome ({ signal }, running, record) {
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
  return null
}

/**
 * Whether the SUT did the scenario's work on every request: its service's count of queries against the responses.
 * @param {ResultRecord} record @param {string} service @param {number} queries counted over the load @param {Phases} phases
 * @param {{ connections: number, pipelining: number }} load
 * @returns {Outcome}
 */
function queryRatioOutcome (record, service, queries, phases, load) {
  record.serverCheck = queryRatio(service, queries, phases, load)
  if (record.serverCheck.withinBounds) return ok()
  return invalid(`DYNO_ERR_QUERY_RATIO: ${service} counted ${record.serverCheck.queries} queries ` +
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
 * @param {RunContext} context @param {Cell} cell @returns {QueryCounter | null}
 */
function queryCounter ({ services }, { scenario }) {
  const service = scenario.queryCountedBy ? services.available.get(scenario.queryCountedBy) : undefined
  return service?.queryCount ? { service: service.name, count: service.queryCount } : null
}

// @ts-check
// One load of a capacity cell from the run's engine: a short warm-up, then the measured phase, closed loop (the ceiling, a level of the
// connections sweep) or at a fixed offered rate (a step), with the SUT's and the generator's cpu sampled over the measured phase. Stops at
// once when the run is interrupted or the SUT exits; what the engine measured until then comes back, marked cut short.
import { scenarioLoadPlan } from '../../load/load-plan.js'
import { runEnv } from '../../platform/env/run-env.js'
import { attachPhaseResources, samplePhases } from '../wall-clock/phase-sampling.js'

/**
 * @typedef {import('../cell-context.js').RunContext} RunContext
 * @typedef {import('../cell-context.js').Cell} Cell
 * @typedef {import('../../subjects/sut-process/start-sut.js').RunningSut} RunningSut
 * @typedef {import('../../load/load-plan.js').PhaseSummary} PhaseSummary
 */

/**
 * @param {RunContext} context @param {Cell} cell @param {RunningSut} running @param {import('../cell-context.js').SutProbes} probes
 * @param {{ warmupSec: number, durationSec: number, ratePerSec: number | null, label: string, connections?: number }} load label: what
 *   the progress line says; connections: the cell's unless given (a level of the sweep)
 * @returns {Promise<{ summary: PhaseSummary | null, cutShort: boolean }>} summary: the measured phase's (null: it did not get there)
 */
export async function loadPhase (context, cell, running, probes, { warmupSec, durationSec, ratePerSec, label, connections }) {
  const { engine, pinning, signal } = context
  cell.onProgress?.({ stage: label })
  const settings = engine.settingsOf(context.load)
  const connectionsHeld = connections ?? cell.connections
  const threads = engine.threads(connectionsHeld, pinning.generatorCpus, settings)
  const plan = scenarioLoadPlan({
    address: running.address,
    remoteHost: !context.sutHost.sharesNetwork,
    port: running.port,
    scenario: cell.scenario,
    connections: connectionsHeld,
    pipelining: context.load.pipelining,
    warmupSec,
    durationSec,
    windowMs: context.load.windowMs,
    ratePerSec
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
      cell.onProgress?.({ stage: `${label} ${progress.phase} ${progress.elapsedSec} s` }),
    onPhase: () => setImmediate(() => sampling.phaseDone()),
    // Deferred as onPhase is, so that a clock read with the report of the phase before it restarts the next phase's window.
    onClock: () => setImmediate(() => sampling.clockStarted())
  }
  const started = context.loadHosts && engine.startOnHosts
    ? engine.startOnHosts(plan, context.loadHosts, hooks)
    : engine.start(plan, { threads, cpus: pinning.generatorCpus, ...hooks })
  sampling.start()
  let cutShort = false
  const stop = () => {
    cutShort = true
    started.stop()
  }
  signal.addEventListener('abort', stop, { once: true })
  running.exited.then(stop)
  /** @type {ReturnType<ReturnType<typeof samplePhases>['finish']>} */
  let reports = {}
  let outcome
  try {
    outcome = await started.done
  } finally {
    signal.removeEventListener('abort', stop)
    reports = sampling.finish()
  }
  const summary = outcome.phases.measure ?? null
  attachPhaseResources({ measure: summary }, reports, {
    generatorCpus: pinning.generatorCpus, sutCpus: pinning.sutCpus, generatorThreads: threads, probes
  })
  if (summary?.loadHosts?.some((share) => share.generatorBound)) summary.generatorBound = true
  return { summary, cutShort: cutShort || running.hasExited() || signal.aborted }
}

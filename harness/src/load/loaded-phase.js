// @ts-check
// A plan of load run to its end: the engine started on it, on this machine or on the load hosts, the SUT and the generator sampled in
// each phase, and the load stopped at once when the run is interrupted or the SUT exits. Every measure and the noise calibration load a
// SUT through here.
import { attachPhaseResources, samplePhases } from './phase-sampling.js'

/**
 * @typedef {import('./engines/engine.js').EngineHooks} EngineHooks
 * @typedef {import('./load-plan.js').PhaseSummary} PhaseSummary
 *
 * @typedef {object} LoadedPhase a plan and what its load runs with
 * @property {import('./engines/engine.js').Engine} engine
 * @property {import('./engines/engine.js').EngineSettings} engineSettings its own options' (its `settingsOf`), which its threads follow
 *   and it is started with
 * @property {import('./load-plan.js').LoadPlan} plan
 * @property {number[] | null} generatorCpus the engine's cpus here
 * @property {import('./engines/engine.js').LoadHost[] | null} loadHosts where the engine runs instead of here (`--load-hosts`); null: here
 * @property {Record<string, string>} env added to the engine's environment (the run's mark)
 * @property {AbortSignal} signal stops the load
 * @property {Promise<unknown> | null} stopWhen stops the load too once it settles (the SUT's exit); null: only the signal does
 * @property {import('./phase-sampling.js').PhaseSampling | null} sampling the SUT sampled in each phase; null: nothing is
 * @property {EngineHooks['onProgress']} [onProgress]
 *
 * @typedef {object} LoadedOutcome
 * @property {Partial<Record<'warmup' | 'measure', PhaseSummary>>} phases as the engine reported them, with what was sampled over each
 * @property {boolean} cutShort the signal or stopWhen stopped the load before its end
 */

/**
 * Runs `plan` to its end, or until it is stopped; an engine that fails throws its DynoError, once sampling has ended.
 * @param {LoadedPhase} phase
 * @returns {Promise<LoadedOutcome>}
 */
export async function runLoadedPhase (phase) {
  const { engine, plan, generatorCpus, loadHosts, signal, stopWhen, sampling } = phase
  const threads = engine.threads(plan.connections, generatorCpus, phase.engineSettings)
  const sampler = sampling
    ? samplePhases(sampling, { phases: plan.phases.map((one) => one.name), generatorPids: () => started.pids, generatorCpus })
    : null
  /** @type {Omit<EngineHooks, 'threads' | 'cpus'>} */
  const hooks = {
    env: phase.env,
    settings: phase.engineSettings,
    ...(phase.onProgress ? { onProgress: phase.onProgress } : {}),
    ...(sampler
      ? {
          // Deferred: wrk starts the next phase's process right after reporting, and the next window samples it.
          onPhase: () => setImmediate(() => sampler.phaseDone()),
          // Deferred as onPhase is, so that a clock read with the report of the phase before it restarts the next phase's window.
          onClock: () => setImmediate(() => sampler.clockStarted())
        }
      : {})
  }
  // `--load-hosts` was refused before the run for an engine that cannot spread over hosts.
  const started = loadHosts && engine.startOnHosts
    ? engine.startOnHosts(plan, loadHosts, hooks)
    : engine.start(plan, { threads, cpus: generatorCpus, ...hooks })
  sampler?.start()
  let cutShort = false
  const stop = () => {
    cutShort = true
    started.stop()
  }
  signal.addEventListener('abort', stop, { once: true })
  stopWhen?.then(stop)
  /** @type {ReturnType<NonNullable<typeof sampler>['finish']>} */
  let reports = {}
  let outcome
  try {
    outcome = await started.done
  } finally {
    signal.removeEventListener('abort', stop)
    reports = sampler?.finish() ?? {}
  }
  const { phases } = outcome
  if (sampling) {
    attachPhaseResources(phases, reports, { generatorCpus, sutCpus: sampling.sutCpus, generatorThreads: threads, probes: sampling.probes })
  }
  // Load from several hosts: each host's engine is judged on its own; one that set the pace marks the phase.
  for (const summary of [phases.warmup, phases.measure]) {
    if (summary?.loadHosts?.some((share) => share.generatorBound)) summary.generatorBound = true
  }
  return { phases, cutShort }
}

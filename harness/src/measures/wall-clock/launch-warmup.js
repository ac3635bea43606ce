// @ts-check
// A launch of a SUT warmed over every route it is to serve, before the first of its cells is measured. A launch serves a SUT's
// scenarios one after another, and each cell warms its own route first; but the framework's shared path (its router, its reply, node's
// HTTP parser) keeps compiling across the cells, so that the first cell of a launch measured a SUT warmed by its own 0.4 s alone and the
// later ones a SUT warmed by every cell before them: in two default runs here, a cell first in its launch read 15 % below the same cell
// later in a launch (docs/measuring.md, "A launch warmed over all its routes"). So a launch first takes `launchWarmupSec` of load on
// each of its routes, in the order its cells come, with the run's engine and connections; every answer counted as a cell's are. What
// it finds wrong is kept, not judged: each cell still verifies and checks its own route.
import { isDynoError } from '../../platform/errors.js'
import { runEnv } from '../../platform/env/run-env.js'
import { scenarioLoadPlan } from '../../load/load-plan.js'
import { runLoadedPhase } from '../../load/loaded-phase.js'

/**
 * @typedef {object} RouteWarmup what one route of a launch answered while it was warmed
 * @property {string} scenario @property {number} requests answered @property {number} wrong errors, timeouts, unexpected statuses and
 *   bodies
 *
 * @typedef {object} LaunchWarmup what a result keeps of the warm-up of the launch that served it
 * @property {number} durationSecEach the load on each route
 * @property {RouteWarmup[]} routes in the order they were warmed
 * @property {string | null} problem why the launch was not warmed over all its routes (the SUT exited, the engine failed, an
 *   interruption); null: it was
 *
 * @typedef {Pick<import('../cell-context.js').RunContext, 'load' | 'engine' | 'pinning' | 'signal' | 'runId' | 'loadHosts' |
 *   'certificate'> & { sutHost: { sharesNetwork: boolean } }} WarmingContext what a warm-up needs of a run (the noise calibration warms
 *   its launches as a run does)
 */

/**
 * Warms a running SUT over the routes of `scenarios`, one after another, `load.launchWarmupSec` each, as loadCell loads a cell (the
 * run's engine, its connections, its load hosts).
 * @param {WarmingContext} context
 * @param {import('@dyno/scenarios').Scenario[]} scenarios the launch's, distinct
 * @param {number} connections
 * @param {import('../../subjects/sut-process/start-sut.js').RunningSut} running
 * @returns {Promise<LaunchWarmup | null>} null: no warm-up asked (`--launch-warmup 0`)
 */
export async function warmLaunch (context, scenarios, connections, running) {
  const { load, engine, pinning, signal } = context
  const durationSecEach = Number(load.launchWarmupSec ?? 0)
  if (!(durationSecEach > 0) || scenarios.length === 0) return null
  /** @type {LaunchWarmup} */
  const warmup = { durationSecEach, routes: [], problem: null }
  const engineSettings = engine.settingsOf(load)
  for (const scenario of scenarios) {
    if (signal.aborted) return { ...warmup, problem: `interrupted by ${String(signal.reason)}` }
    if (running.hasExited()) break
    const plan = scenarioLoadPlan({
      address: running.address,
      remoteHost: !context.sutHost.sharesNetwork,
      port: running.port,
      scenario,
      connections,
      ...load,
      warmupSec: 0,
      durationSec: durationSecEach,
      windowMs: Math.min(load.windowMs, Math.round(durationSecEach * 1000)),
      trust: context.certificate ?? null
    })
    try {
      const { phases } = await runLoadedPhase({
        engine,
        engineSettings,
        plan,
        generatorCpus: pinning.generatorCpus,
        loadHosts: context.loadHosts,
        env: runEnv(context.runId),
        signal,
        stopWhen: running.exited,
        // What a warm-up finds is counted, not sampled: each cell samples its own load.
        sampling: null
      })
      const phase = phases.measure
      warmup.routes.push({
        scenario: scenario.name,
        requests: phase?.requests ?? 0,
        wrong: phase ? phase.errors + phase.timeouts + phase.unexpectedStatus + phase.mismatches : 0
      })
    } catch (error) {
      if (!isDynoError(error)) throw error
      return { ...warmup, problem: `${scenario.name}: ${error.code}: ${error.message.split('\n')[0]}` }
    }
  }
  if (running.hasExited()) {
    const last = warmup.routes.at(-1)?.scenario ?? scenarios[0].name
    return { ...warmup, problem: `the SUT exited while ${last} was warmed` }
  }
  return warmup
}

// @ts-check
// One load of a capacity cell from the run's engine: a short warm-up, then the measured phase, closed loop (the ceiling, a level of the
// connections sweep) or at a fixed offered rate (a step), with the SUT's and the generator's cpu sampled over the measured phase, and what
// others took of their cpus in short windows. Stops at once when the run is interrupted or the SUT exits; what the engine measured until
// then comes back, marked cut short.
import { scenarioLoadPlan } from '../../load/load-plan.js'
import { runLoadedPhase } from '../../load/loaded-phase.js'
import { cellLoad } from '../cell-context.js'
import { STEP_INTERFERENCE_INTERVAL_MS } from './step-pauses.js'

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
  cell.onProgress?.({ stage: label })
  const plan = scenarioLoadPlan({
    address: running.address,
    remoteHost: !context.sutHost.sharesNetwork,
    port: running.port,
    scenario: cell.scenario,
    connections: connections ?? cell.connections,
    pipelining: context.load.pipelining,
    warmupSec,
    durationSec,
    windowMs: context.load.windowMs,
    ratePerSec
  })
  const loaded = cellLoad(context, running, probes)
  const { phases, cutShort } = await runLoadedPhase({
    ...loaded,
    // Steal in short windows: one pause of the machine stands out in them (step-pauses.js).
    sampling: loaded.sampling && { ...loaded.sampling, interferenceIntervalMs: STEP_INTERFERENCE_INTERVAL_MS },
    plan,
    onProgress: (progress) => cell.onProgress?.({ stage: `${label} ${progress.phase} ${progress.elapsedSec} s` })
  })
  return { summary: phases.measure ?? null, cutShort: cutShort || running.hasExited() || context.signal.aborted }
}

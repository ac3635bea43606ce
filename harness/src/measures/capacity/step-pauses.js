// @ts-check
// The pauses a step met, each from where it is seen: the hypervisor's steal in short windows of the measured cpus (the interference
// sampler, at STEP_INTERFERENCE_INTERVAL_MS), the SUT's event-loop delay where its runtime has the probe, and the generator's own timer lag
// (how late it sent behind its schedule). A phase's mean steal hides a 15 ms pause in a second; a 100-ms window shows it as 15 %.
import { roundTo } from '../../platform/util/numbers.js'

/** The interference sampler's window during a step: short enough that one pause of the virtual machine stands out in it. */
export const STEP_INTERFERENCE_INTERVAL_MS = 100

/**
 * @typedef {object} StepPauses
 * @property {number | null} stealMaxMs the most the hypervisor stole of the measured cpus in one window (its steal % of the window's
 *   length); null: not read
 * @property {number | null} stealWindowMs the windows' length
 * @property {number | null} sutEventLoopMaxMs the SUT's longest event-loop delay; null: its runtime has no probe
 * @property {number | null} generatorLagMaxMs the most the generator sent behind its schedule; null: the engine does not say
 */

/**
 * @param {import('../../load/load-plan.js').PhaseSummary | null} summary the step's measured phase
 * @returns {StepPauses}
 */
export function stepPauses (summary) {
  const report = summary?.interference ?? null
  let previousMs = 0
  const stolenMs = (report?.samples ?? []).map((sample) => {
    const windowMs = sample.tMs - previousMs
    previousMs = sample.tMs
    return sample.stealPct / 100 * windowMs
  })
  return {
    stealMaxMs: stolenMs.length === 0 ? null : roundTo(Math.max(...stolenMs), 1),
    stealWindowMs: report ? report.intervalMs : null,
    sutEventLoopMaxMs: summary?.eventLoop?.maxMs ?? null,
    generatorLagMaxMs: summary?.rate?.maxSendLagMs ?? null
  }
}

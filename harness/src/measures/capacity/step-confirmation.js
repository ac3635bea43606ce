// @ts-check
// Whether a step not held is measured again before the search moves: a SUT that used less than half a core did not run out of cpu, so a
// failure there is more likely a pause of the machine or of the generator than the SUT's limit; so is a step where the generator fell
// behind, or where the hypervisor stole, or the generator lagged, for longer than half the objective's tightest bound. Such a step is
// measured again, at most CONFIRM_RETRIES times (rate-search.js); every attempt stays in the result.
import { formatMs } from '../../platform/text/format.js'

/** How many times a step not held is measured again, when this says why, before it counts as not held. */
export const CONFIRM_RETRIES = 2

/** Below this share of one core the SUT did not run out of cpu: its step, not held, is measured again. */
export const CONFIRM_SUT_CPU_SHARE = 0.5

/** A pause from outside the SUT longer than this share of the objective's tightest bound disturbs the step. */
export const PAUSE_SHARE_OF_BOUND = 0.5

/**
 * Why a step is measured again; null: it counts as it is (held, cut short, or not held at a SUT that ran out of cpu).
 * @param {import('./capacity-step.js').CapacityStep} step
 * @param {import('./objective.js').Objective} objective
 * @returns {string | null}
 */
export function measureAgainBecause (step, objective) {
  if (step.held || step.cutShort) return null
  const boundMs = Math.min(...objective.terms.map((term) => term.maxMs))
  const pauseLimitMs = PAUSE_SHARE_OF_BOUND * boundMs
  const { stealMaxMs, generatorLagMaxMs } = step.pauses
  const reasons = [
    step.generatorBehind ? 'the generator fell behind its schedule' : null,
    step.sutCpuPct !== null && step.sutCpuPct < CONFIRM_SUT_CPU_SHARE * 100
      ? `the SUT used ${step.sutCpuPct} % of a core, under ${CONFIRM_SUT_CPU_SHARE * 100} %`
      : null,
    stealMaxMs !== null && stealMaxMs > pauseLimitMs
      ? `the hypervisor stole ${formatMs(stealMaxMs)} ms in ${step.pauses.stealWindowMs} ms, over half of ${formatMs(boundMs)} ms`
      : null,
    generatorLagMaxMs !== null && generatorLagMaxMs > pauseLimitMs && !step.generatorBehind
      ? `the generator sent ${formatMs(generatorLagMaxMs)} ms late once, over half of ${formatMs(boundMs)} ms`
      : null
  ].filter((text) => text !== null)
  return reasons.length === 0 ? null : reasons.join('; ')
}

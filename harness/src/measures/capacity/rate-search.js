// @ts-check
// The search for the highest offered rate a SUT holds: the lowest step first (a SUT that cannot hold it has capacity 0, with the reason);
// then a coarse sweep up to the top (the closed-loop ceiling, or --max-rate), stopping at the first step not held; then bisection between
// the last step held and the first one not held, until they are within RESOLUTION of each other. A failure is confirmed before it
// counts: a step not held whose verdict says why it may not be the SUT's (the generator fell behind, the SUT used under half a core, a
// pause of the machine: step-confirmation.js) is measured again, at most CONFIRM_RETRIES times, as a disturbed cell is; only when it
// fails every time does it count as not held, and the limit says on how many attempts. A closed-loop
// ceiling is a figure of its own short phase, measured first on a SUT still warming up: when every step up to it is held, the sweep goes
// on above it (up to twice it), for an open-model step may hold more than that phase answered.
import { formatInteger } from '../../platform/text/format.js'
import { CONFIRM_RETRIES } from './step-confirmation.js'

/** The fractions of the top the coarse sweep offers, in order. */
export const SWEEP_FRACTIONS = Object.freeze([0.25, 0.5, 0.75, 0.9, 1])

/** The fractions of the top offered next when every sweep step was held and the top may be passed (the closed-loop ceiling). */
export const ABOVE_TOP_FRACTIONS = Object.freeze([1.25, 1.5, 2])

/** Bisection stops when the step not held is within this share above the step held. */
export const RESOLUTION = 0.04

/** The most bisection steps a search takes, whatever the resolution reached. */
export const MAX_BISECTION_STEPS = 5

/**
 * @typedef {{ held: boolean, generatorBehind: boolean, cutShort: boolean, reason: string | null, measureAgain: string | null }}
 *   StepVerdict measureAgain: why a step not held is measured again before it counts; null: it counts as it is
 * @typedef {object} SearchResult
 * @property {number | null} capacityPerSec the highest offered rate held; 0: not even the lowest step; null: interrupted before it was
 *   known
 * @property {'objective' | 'top' | 'generator' | 'interrupted'} limitedBy what stopped it going higher: a step the SUT did not hold, the
 *   top of the search, a step the generator could not keep to, the run's interruption
 * @property {string} limit in words: the reason of the step that was not held, or the top
 */

/**
 * @param {{ minRatePerSec: number, topPerSec: number, topIs: string, beyondTop: boolean,
 *   measureStep: (offeredPerSec: number, attempt: number) => Promise<StepVerdict> }} search attempt: 1 for a rate's first measurement,
 *   2 and 3 for its confirmations; topIs: what the top is, in words (`the closed-loop ceiling`,
 *   `--max-rate`); beyondTop: the top is an estimate the search may pass (ABOVE_TOP_FRACTIONS), not a bound it was given
 * @returns {Promise<SearchResult>}
 */
export async function searchCapacity ({ minRatePerSec, topPerSec, topIs, beyondTop, measureStep: measureOnce }) {
  /** @param {number} rate @returns {Promise<StepVerdict>} the step's verdict, measured again while it says why */
  const measureStep = async (rate) => {
    let verdict = await measureOnce(rate, 1)
    let attempts = 1
    while (attempts <= CONFIRM_RETRIES && !verdict.held && !verdict.cutShort && verdict.measureAgain !== null) {
      attempts += 1
      verdict = await measureOnce(rate, attempts)
    }
    return attempts === 1 || verdict.held || verdict.cutShort
      ? verdict
      : { ...verdict, reason: `not held on ${attempts} attempts; the last: ${verdict.reason}` }
  }
  if (topPerSec < minRatePerSec) {
    const limit = `${topIs} (${formatInteger(topPerSec)} req/s) is below the lowest step (${formatInteger(minRatePerSec)} req/s)`
    return { capacityPerSec: 0, limitedBy: 'top', limit }
  }
  const lowest = await measureStep(minRatePerSec)
  if (lowest.cutShort) return { capacityPerSec: null, limitedBy: 'interrupted', limit: 'interrupted at the lowest step' }
  if (!lowest.held) {
    const limitedBy = lowest.generatorBehind ? 'generator' : 'objective'
    return { capacityPerSec: 0, limitedBy, limit: `at ${formatInteger(minRatePerSec)} req/s: ${lowest.reason}` }
  }
  let held = minRatePerSec
  /** @type {{ rate: number, verdict: StepVerdict } | null} */
  let notHeld = null
  const fractions = beyondTop ? [...SWEEP_FRACTIONS, ...ABOVE_TOP_FRACTIONS] : SWEEP_FRACTIONS
  for (const rate of fractions.map((fraction) => Math.round(fraction * topPerSec)).filter((rate) => rate > minRatePerSec)) {
    const verdict = await measureStep(rate)
    if (verdict.cutShort) return interrupted(rate, held)
    if (!verdict.held) {
      notHeld = { rate, verdict }
      break
    }
    held = rate
  }
  if (!notHeld) {
    const limit = beyondTop ? `held up to ${ABOVE_TOP_FRACTIONS.at(-1)} × ${topIs}` : `held up to ${topIs}`
    return { capacityPerSec: held, limitedBy: 'top', limit }
  }
  for (let step = 0; step < MAX_BISECTION_STEPS && notHeld.rate > held * (1 + RESOLUTION); step++) {
    const rate = Math.round((held + notHeld.rate) / 2)
    const verdict = await measureStep(rate)
    if (verdict.cutShort) return interrupted(rate, held)
    if (verdict.held) held = rate
    else notHeld = { rate, verdict }
  }
  return {
    capacityPerSec: held,
    limitedBy: notHeld.verdict.generatorBehind ? 'generator' : 'objective',
    limit: `at ${formatInteger(notHeld.rate)} req/s: ${notHeld.verdict.reason}`
  }
}

/** @param {number} rate @param {number} held @returns {SearchResult} */
const interrupted = (rate, held) => ({
  capacityPerSec: null,
  limitedBy: 'interrupted',
  limit: `interrupted at ${formatInteger(rate)} req/s, ${formatInteger(held)} req/s held before`
})

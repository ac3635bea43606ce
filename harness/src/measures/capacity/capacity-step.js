// @ts-check
// One open-model step of a capacity search, as a result records it: what was offered and what came back, the latency percentiles timed
// from each intended send time, failures, the SUT's and the generator's cpu, and how far the generator lagged its own schedule. A step is
// held when the achieved rate is at least 99 % of the offered one (the requests still in flight at its end, within the objective's
// largest bound, not counted against it), every term of the objective holds and no request failed; a step where the generator fell
// behind its schedule measured the generator, not the SUT: it is marked and never held.
import { formatInteger, formatMs } from '../../platform/text/format.js'
import { roundTo } from '../../platform/util/numbers.js'
import { judgeObjective } from './objective.js'
import { measureAgainBecause } from './step-confirmation.js'
import { objectiveRequests } from './step-length.js'
import { stepPauses } from './step-pauses.js'

/** The share of the offered rate a held step achieves. */
export const HELD_ACHIEVED_SHARE = 0.99

/** The share of the offered rate the generator must have sent on schedule for the step to be the SUT's. */
export const GENERATOR_SENT_SHARE = 0.99

/**
 * The most the generator may lag its schedule at a term's percentile, as a share of the term's bound: latency is timed from the
 * intended send time, so if as many sends as the term lets exceed its bound were later than this, the generator's own delay could
 * decide the figure the term judges. One late wake-up of the generator (the kernel running something else on its cpu for a few ms)
 * delays the few requests due in it, fewer than a percentile's share in a step of many requests: it is recorded (maxSendLagMs), not held
 * against the step. A step holds twenty requests past its percentile (step-length.js), so one late wake-up cannot be the percentile alone;
 * a step not held beside a long one is measured again (step-confirmation.js).
 * Every engine that sends on a schedule (autocannon's and the native engine's open model) records each send's lag, so each term is
 * judged on its own percentile of it.
 */
export const GENERATOR_LAG_SHARE_OF_BOUND = 0.5

/**
 * @typedef {object} CapacityStep
 * @property {number} offeredPerSec the fixed rate the generator was asked to send at
 * @property {number} achievedPerSec responses per second over the measured phase
 * @property {number | null} sentPerSec requests the schedule released per second (null: the engine does not say)
 * @property {number | null} maxSendLagMs the most the generator lagged its own schedule
 * @property {{ p50: number, p90: number, p99: number, p99_9: number } | null} latencyMs from each intended send time; null: no response
 * @property {import('./objective.js').ObjectiveVerdict[]} objective each term, judged exactly, with the generator's send lag at its
 *   percentile
 * @property {number} requests @property {number} errors @property {number} timeouts
 * @property {number} failed responses of the wrong status or body
 * @property {number | null} sutCpuPct in % of one core @property {number | null} generatorCpuPct in % of one core
 * @property {number | null} othersCpuPct the most other processes (and the hypervisor) took of the SUT's or the generator's cpus, in %;
 *   null: not read
 * @property {boolean} generatorBehind the generator fell behind its schedule or its cpu set the pace: the step is the generator's
 * @property {boolean} cutShort interrupted, or the SUT exited: not judged
 * @property {boolean} held
 * @property {string | null} reason why it was not held; null when it was
 * @property {number} durationSec measured, after the warm-up: `--step`, or longer at a rate too low to send requiredRequests in it
 * @property {number} requiredRequests the fewest requests the objective's highest percentile needs past its warm-up (step-length.js)
 * @property {import('./step-pauses.js').StepPauses} pauses the longest pauses it met, each where it is seen
 * @property {string | null} measureAgain why it was measured again (step-confirmation.js); null: it counts as it is
 * @property {CapacityAttempt[]} attempts the earlier attempts at the same rate, in order, each measured again for its measureAgain; the
 *   step's own figures are those of its last attempt, the one that counts
 *
 * @typedef {Omit<CapacityStep, 'attempts'>} CapacityAttempt
 */

/**
 * @param {number} offeredPerSec
 * @param {import('../../load/load-plan.js').PhaseSummary | null} summary the step's measured phase
 * @param {{ objective: import('./objective.js').Objective, cutShort: boolean }} context
 * @returns {CapacityStep}
 */
export function judgeStep (offeredPerSec, summary, { objective, cutShort }) {
  const latency = summary?.latencyMs ?? null
  const achievedPerSec = summary ? roundTo(summary.requestsPerSec.mean, 1) : 0
  const terms = summary
    ? judgeObjective(objective, summary.latencyHistogramUs, summary.rate?.sendLagHistogramUs)
    : objective.terms.map(({ percentile, maxMs }) => ({ percentile, maxMs, latencyMs: null, held: false, sendLagMs: null }))
  /** @param {number} index @returns {string} the term as given (its verdicts are in the objective's order) */
  const termText = (index) => objective.terms[index].text
  const failed = summary ? summary.unexpectedStatus + summary.mismatches : 0
  const sentPerSec = summary?.rate ? roundTo(summary.rate.achievedSendPerSec, 1) : null
  const maxSendLagMs = summary?.rate ? summary.rate.maxSendLagMs : null
  const behind = [
    sentPerSec !== null && sentPerSec < GENERATOR_SENT_SHARE * offeredPerSec
      ? `the generator sent ${formatInteger(sentPerSec)} req/s of ${formatInteger(offeredPerSec)} on schedule`
      : null,
    ...terms.map((term, index) => term.sendLagMs !== null && term.sendLagMs > GENERATOR_LAG_SHARE_OF_BOUND * term.maxMs
      ? `the generator sent ${roundTo(100 - term.percentile, 6)} % of its requests ${formatMs(term.sendLagMs)} ms or more behind its ` +
        `schedule (more than ${GENERATOR_LAG_SHARE_OF_BOUND * 100} % of the bound of ${termText(index)})`
      : null),
    summary?.generatorBound ? `the generator's cpu set the pace (${summary.generatorCpuPct ?? '-'} % of a core)` : null
  ].filter((text) => text !== null)
  // The requests still in flight when the step ends are not answered within it: at most those sent in the objective's largest bound
  // before its end (the rest were answered within it, or the objective failed), and one more for the rounding of the schedule.
  const largestMs = Math.max(...objective.terms.map((term) => term.maxMs))
  const inFlightAllowance = offeredPerSec * largestMs / 1000 + 1
  const shortOfOffered = summary !== null &&
    summary.requests < HELD_ACHIEVED_SHARE * offeredPerSec * summary.durationSec - inFlightAllowance
  const reasons = [
    cutShort ? 'cut short (interrupted, or the SUT exited)' : null,
    !summary ? 'nothing was measured' : null,
    ...behind,
    shortOfOffered
      ? `achieved ${formatInteger(achievedPerSec)} req/s, below ${HELD_ACHIEVED_SHARE * 100} % of ${formatInteger(offeredPerSec)}`
      : null,
    summary && summary.errors + summary.timeouts > 0 ? `${summary.errors} errors and ${summary.timeouts} timeouts` : null,
    failed > 0 ? `${failed} responses of the wrong status or body` : null,
    ...terms.flatMap((term, index) => summary && !term.held
      ? [`${termText(index)} not held: ${term.latencyMs === null ? 'not measured' : `${formatMs(term.latencyMs)} ms`}`]
      : [])
  ].filter((text) => text !== null)
  /** @type {CapacityStep} */
  const step = {
    offeredPerSec: roundTo(offeredPerSec, 1),
    achievedPerSec,
    sentPerSec,
    maxSendLagMs,
    latencyMs: latency ? { p50: latency.p50, p90: latency.p90, p99: latency.p99, p99_9: latency.p99_9 } : null,
    objective: terms,
    requests: summary?.requests ?? 0,
    errors: summary?.errors ?? 0,
    timeouts: summary?.timeouts ?? 0,
    failed,
    sutCpuPct: summary?.resources?.targets.sut?.cpuPctMean ?? null,
    generatorCpuPct: summary?.generatorCpuPct ?? null,
    othersCpuPct: takenByOthersPct(summary?.interference ?? null),
    generatorBehind: behind.length > 0,
    cutShort,
    held: reasons.length === 0,
    reason: reasons.length === 0 ? null : reasons.join('; '),
    durationSec: summary ? roundTo(summary.durationSec, 3) : 0,
    requiredRequests: objectiveRequests(objective),
    pauses: stepPauses(summary),
    measureAgain: null,
    attempts: []
  }
  return { ...step, measureAgain: measureAgainBecause(step, objective) }
}

/**
 * The most other processes and the hypervisor took of any of the phase's cpu sets (the SUT's, the generator's), in %.
 * @param {import('../../platform/resources/interference-sampler.js').InterferenceReport | null} report
 * @returns {number | null} null: not read
 */
export function takenByOthersPct (report) {
  if (!report) return null
  const shares = Object.values(report.roles).map((share) => share.othersPct + share.stealPct)
  return shares.length === 0 ? null : roundTo(Math.max(...shares), 1)
}

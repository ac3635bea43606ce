// @ts-check
// A latency objective (`--slo p50<=2ms,p99<=10ms`): one or more terms, each a percentile of latency timed from the intended send time and
// the most it may be. Parsed once, at the boundary, with an error that names the bad term and what is allowed; then judged against a
// step's latency histogram, at exactly the percentiles it names. Its text is kept as given (only its spaces dropped and its letters in
// lower case), so that what a result records and a report prints is what was asked, never a rounding of it.
import { decodeHistogram, MAX_LATENCY_US } from '../../load/latency-histogram.js'
import { roundTo } from '../../platform/util/numbers.js'

/**
 * @typedef {{ percentile: number, maxMs: number, text: string }} ObjectiveTerm latency at `percentile` (0 < p < 100) at most `maxMs`;
 *   text: the term as given (`p99<=10ms`), to print
 * @typedef {{ text: string, terms: ObjectiveTerm[] }} Objective text: as a result records it and the reports print it; terms: sorted by
 *   percentile
 */

/** The default objective, argued in docs/measuring.md ("Capacity"). */
export const DEFAULT_OBJECTIVE_TEXT = 'p99<=10ms'

/** The most terms an objective takes: one per percentile worth naming. */
const MAX_TERMS = 8

/** Units a bound may be given in, and the power of ten that makes one of each a ms (applied to the digits given: exact). */
const UNIT_MS_EXPONENT = Object.freeze({ us: -3, µs: -3, ms: 0, s: 3 })

/** A bound below the histograms' resolution (1 µs) or above the longest latency they record could never be told apart. */
const MIN_BOUND_MS = 0.001
const MAX_BOUND_MS = MAX_LATENCY_US / 1000

/** A number as a term takes it: digits, with a decimal point and digits after it or not. */
const DECIMAL = /^\d+(?:\.\d+)?$/
/** A number in exponent form (1e3, 2.5E-4), refused with its own reason. */
const EXPONENT_FORM = /^(?:\d+\.?\d*|\.\d+)e[+-]?\d+$/i

/** What an objective looks like, for every error that refuses one. */
export const OBJECTIVE_ALLOWED = 'one or more comma-separated terms `p<percentile><=<bound><unit>`, the percentile above 0 and below 100 ' +
  '(p50, p99, p99.9), the bound from 1 us to 60 s with its unit (us, ms or s), both in plain decimals (no exponent), e.g. `p99<=10ms` ' +
  'or `p50<=2ms,p99<=10ms`'

/**
 * @param {string} text as typed
 * @returns {{ objective: Objective } | { problem: string }} problem: what is wrong with it, naming the bad term (OBJECTIVE_ALLOWED
 *   says what is allowed)
 */
export function parseObjective (text) {
  const terms = String(text).split(',').map((term) => term.trim())
  if (terms.length > MAX_TERMS) return { problem: `${terms.length} terms is more than ${MAX_TERMS}` }
  /** @type {GivenTerm[]} */
  const parsed = []
  for (const term of terms) {
    const problem = termProblem(term)
    if (typeof problem === 'string') return { problem: `\`${term}\` ${problem}` }
    if (parsed.some((other) => other.percentile === problem.percentile)) {
      return { problem: `p${problem.percentileText} is named twice` }
    }
    parsed.push(problem)
  }
  const sorted = [...parsed].sort((a, b) => a.percentile - b.percentile)
  return {
    objective: {
      text: parsed.map((term) => term.text).join(','),
      terms: sorted.map(({ percentile, maxMs, text: termText }) => ({ percentile, maxMs, text: termText }))
    }
  }
}

/** @typedef {ObjectiveTerm & { percentileText: string }} GivenTerm a term with its percentile as typed */

/**
 * @param {string} term one term as typed
 * @returns {string | GivenTerm} what is wrong with it, or the term
 */
function termProblem (term) {
  if (term === '') return 'is empty'
  const match = /^p(.*?)\s*<=\s*(.*?)\s*([a-zµ]*)$/i.exec(term)
  if (!match) return 'does not parse'
  const [, percentileText, boundText, unitText] = match
  const numberProblem = (/** @type {string} */ what, /** @type {string} */ given) => EXPONENT_FORM.test(given)
    ? `gives its ${what} ${given} in exponent form, which is not taken: write it in plain decimals`
    : DECIMAL.test(given) ? null : 'does not parse'
  const percentileProblem = numberProblem('percentile', percentileText)
  if (percentileProblem) return percentileProblem
  const percentile = Number(percentileText)
  if (!(percentile > 0 && percentile < 100)) return `names percentile ${percentileText}, out of range (above 0 and below 100)`
  const unit = unitText.toLowerCase()
  if (unit === '' && DECIMAL.test(boundText)) return `has no unit after its bound ${boundText}`
  const boundProblem = numberProblem('bound', boundText)
  if (boundProblem) return boundProblem
  if (!Object.hasOwn(UNIT_MS_EXPONENT, unit)) return `has unit \`${unitText}\`, not one of us, ms, s`
  // The digits given, moved by the unit's power of ten: the closest double to the bound as typed, never a product rounded twice.
  const maxMs = Number(`${boundText}e${UNIT_MS_EXPONENT[/** @type {keyof typeof UNIT_MS_EXPONENT} */ (unit)]}`)
  if (!(maxMs >= MIN_BOUND_MS)) return `has bound ${boundText}${unitText}, below 1 us (the finest latency dyno measures)`
  if (!(maxMs <= MAX_BOUND_MS)) {
    return `has bound ${boundText}${unitText}, above ${MAX_BOUND_MS / 1000} s (the longest latency dyno records)`
  }
  return { percentile, maxMs, text: `p${percentileText}<=${boundText}${unit}`, percentileText }
}

/**
 * Each term's latency in a step, from its exact histogram, and how late the generator sent at that term's percentile.
 * @param {Objective} objective @param {string} latencyHistogramUs the step's, compressed
 * @param {string | undefined} sendLagHistogramUs how far behind its schedule each request was sent; undefined: not recorded
 * @returns {ObjectiveVerdict[]}
 *
 * @typedef {object} ObjectiveVerdict
 * @property {number} percentile @property {number} maxMs
 * @property {number | null} latencyMs null: no response to time
 * @property {boolean} held
 * @property {number | null} sendLagMs the generator's send lag at the same percentile (a share of sends that late or later as large
 *   as the share of latencies the term allows above its bound); null: not recorded
 */
export function judgeObjective (objective, latencyHistogramUs, sendLagHistogramUs) {
  const histogram = decodeHistogram(latencyHistogramUs)
  const lags = sendLagHistogramUs === undefined ? null : decodeHistogram(sendLagHistogramUs)
  const at = (/** @type {import('hdr-histogram-js').Histogram | null} */ of, /** @type {number} */ percentile) =>
    of && of.totalCount > 0 ? roundTo(of.getValueAtPercentile(percentile) / 1000, 3) : null
  return objective.terms.map((term) => {
    const latencyMs = at(histogram, term.percentile)
    const { percentile, maxMs } = term
    return { percentile, maxMs, latencyMs, held: latencyMs !== null && latencyMs <= maxMs, sendLagMs: at(lags, percentile) }
  })
}

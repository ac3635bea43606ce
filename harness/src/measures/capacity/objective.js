// @ts-check
// A latency objective (`--slo p50<=2ms,p99<=10ms`): one or more terms, each a percentile of latency timed from the intended send time and
// the most it may be. Parsed once, at the boundary, with an error that names the bad term and what is allowed; then judged against a
// step's latency histogram, at exactly the percentiles it names.
import { decodeHistogram } from '../../load/latency-histogram.js'
import { roundTo } from '../../platform/util/numbers.js'

/**
 * @typedef {{ percentile: number, maxMs: number }} ObjectiveTerm latency at `percentile` (0 < p < 100) at most `maxMs`
 * @typedef {{ text: string, terms: ObjectiveTerm[] }} Objective text: as a result records it and the reports print it
 */

/** The default objective, argued in docs/measuring.md ("Capacity"). */
export const DEFAULT_OBJECTIVE_TEXT = 'p99<=10ms'

/** The most terms an objective takes: one per percentile worth naming. */
const MAX_TERMS = 8

/** Units a bound may be given in, and how many ms one of each is. */
const UNIT_MS = Object.freeze({ us: 0.001, µs: 0.001, ms: 1, s: 1000 })

/** What an objective looks like, for every error that refuses one. */
export const OBJECTIVE_ALLOWED = 'one or more comma-separated terms `p<percentile><=<bound><unit>`, the percentile above 0 and below 100 ' +
  '(p50, p99, p99.9), the bound a number above 0 with its unit (us, ms or s), e.g. `p99<=10ms` or `p50<=2ms,p99<=10ms`'

/**
 * @param {string} text as typed
 * @returns {{ objective: Objective } | { problem: string }} problem: what is wrong with it, naming the bad term (OBJECTIVE_ALLOWED
 *   says what is allowed)
 */
export function parseObjective (text) {
  const terms = String(text).split(',').map((term) => term.trim())
  if (terms.length > MAX_TERMS) return { problem: `${terms.length} terms is more than ${MAX_TERMS}` }
  /** @type {ObjectiveTerm[]} */
  const parsed = []
  for (const term of terms) {
    const problem = termProblem(term)
    if (typeof problem === 'string') return { problem: `\`${term}\` ${problem}` }
    if (parsed.some((other) => other.percentile === problem.percentile)) {
      return { problem: `p${problem.percentile} is named twice` }
    }
    parsed.push(problem)
  }
  parsed.sort((a, b) => a.percentile - b.percentile)
  return { objective: { text: parsed.map(termText).join(','), terms: parsed } }
}

/**
 * @param {string} term one term as typed
 * @returns {string | ObjectiveTerm} what is wrong with it, or the term
 */
function termProblem (term) {
  if (term === '') return 'is empty'
  const match = /^p(\d+(?:\.\d+)?)\s*<=\s*(\d+(?:\.\d+)?)\s*([a-zµ]*)$/i.exec(term)
  if (!match) return 'does not parse'
  const percentile = Number(match[1])
  if (!(percentile > 0 && percentile < 100)) return `names percentile ${match[1]}, out of range (above 0 and below 100)`
  const unit = match[3].toLowerCase()
  if (unit === '') return `has no unit after its bound ${match[2]}`
  if (!Object.hasOwn(UNIT_MS, unit)) return `has unit \`${match[3]}\`, not one of us, ms, s`
  const maxMs = Number(match[2]) * UNIT_MS[/** @type {keyof typeof UNIT_MS} */ (unit)]
  if (!(maxMs > 0) || !Number.isFinite(maxMs)) return `has bound ${match[2]}${match[3]}, not above 0`
  return { percentile, maxMs }
}

/** @param {ObjectiveTerm} term @returns {string} `p99<=10ms` */
export const termText = (term) => `p${term.percentile}<=${roundTo(term.maxMs, 3)}ms`

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
    return { ...term, latencyMs, held: latencyMs !== null && latencyMs <= term.maxMs, sendLagMs: at(lags, term.percentile) }
  })
}

// @ts-check
// When a count's windows are the runtime's steady state: the rule that ends its warm-up. A fixed number of uncounted requests
// does not fit every runtime (Node 24's V8 tiered express up later than Node 20's and 22's: after 10,000 requests its windows
// counted 723k, 186k, 155k, then 143k program instructions per request). So after the uncounted warm-up a count keeps counting
// windows, and the counted windows are the last ones once they agree with each other and no compile happened in them; the
// windows before are warm-up too (probe windows, recorded). The warm-up is bounded: at the bound, the last windows are the
// count, marked as not settled, with the reason.
import { median } from 'simple-statistics'

/** The version of this rule: a count, its cache key and a timeline's line name it, and counts of another rule are kept apart. */
export const WARMUP_RULE = 'settle-1'
/** The rule of counts made before: a fixed number of uncounted requests, whatever the windows said. */
export const FIXED_WARMUP_RULE = 'fixed'

/**
 * How close to their median the windows of a settled count lie: within SETTLE_FLOOR of it, or, where the count's windows vary
 * more (their own spread: 1.4826 median absolute deviations estimate one standard deviation), within SETTLE_SPREADS of those
 * standard deviations; never beyond SETTLE_CEILING, where a count is called unsettled whatever its spread (change-points.js).
 */
export const SETTLE_FLOOR = 0.02
export const SETTLE_SPREADS = 3
export const SETTLE_CEILING = 0.1
/**
 * A window whose compilation (V8's parser, baseline and optimising compilers, deoptimizer; compiler-split.js) cost more than this
 * share of its program instructions holds a compile: the runtime has not settled. Settled windows of express and fastify compile
 * nothing measurable; a window where one function tiers up holds a percent or more.
 */
export const COMPILE_QUIET_SHARE = 0.005

/**
 * @typedef {object} SettleWindow
 * @property {number} instructionsPerRequest
 * @property {number | null} programInstructionsPerRequest
 * @property {{ instructionsPerRequest: number, optimisations: number, deoptimisations: number } | null} [compiler]
 *
 * @typedef {{ settled: true } | { settled: false, reason: string }} SettleVerdict
 */

/**
 * Whether these windows (the last of a count) are the runtime's steady state.
 * @param {SettleWindow[]} windows
 * @returns {SettleVerdict}
 */
export function settleVerdict (windows) {
  if (windows.length === 0) return { settled: false, reason: 'no window was counted' }
  const values = windows.map((window) => window.programInstructionsPerRequest ?? window.instructionsPerRequest)
  const middle = median(values)
  const spread = 1.4826 * median(values.map((value) => Math.abs(value - middle)))
  const allowed = Math.min(SETTLE_CEILING * middle, Math.max(SETTLE_FLOOR * middle, SETTLE_SPREADS * spread))
  const far = values.findIndex((value) => Math.abs(value - middle) > allowed)
  if (far >= 0) {
    return {
      settled: false,
      reason: `window ${far + 1} of the last ${windows.length} counts ${values[far]} instructions per request, more than ` +
        `${(100 * allowed / middle).toFixed(1)}% from their median ${Math.round(middle)}`
    }
  }
  const compiling = windows.findIndex((window, index) =>
    window.compiler && window.compiler.instructionsPerRequest > COMPILE_QUIET_SHARE * values[index])
  if (compiling >= 0) {
    const compiler = /** @type {NonNullable<SettleWindow['compiler']>} */ (windows[compiling].compiler)
    return {
      settled: false,
      reason: `window ${compiling + 1} of the last ${windows.length} spends ${compiler.instructionsPerRequest} instructions per request ` +
        `in V8's compilers (${compiler.optimisations} optimised, ${compiler.deoptimisations} deoptimised), more than ` +
        `${100 * COMPILE_QUIET_SHARE}% of them`
    }
  }
  return { settled: true }
}

/**
 * Where a count that counts window after window stops: when its last `windows` windows have settled, or when one more window
 * would take the requests before the counted windows past the bound.
 * @param {{ counted: SettleWindow[], windows: number, warmupRequests: number, windowRequests: number, boundRequests: number }} state
 *   counted: every window counted so far, probe windows included
 * @returns {{ done: false } | { done: true, verdict: SettleVerdict }}
 */
export function settleStop ({ counted, windows, warmupRequests, windowRequests, boundRequests }) {
  if (counted.length < windows) return { done: false }
  const verdict = settleVerdict(counted.slice(-windows))
  if (verdict.settled) return { done: true, verdict }
  const before = warmupRequests + (counted.length - windows + 1) * windowRequests
  if (before > boundRequests) {
    return {
      done: true,
      verdict: {
        settled: false, reason: `not settled within the bound of ${boundRequests} requests before the counted windows: ${verdict.reason}`
      }
    }
  }
  return { done: false }
}

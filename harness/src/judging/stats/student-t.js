// @ts-check
// Student's t distribution, for intervals and tests on a handful of rounds: its two-sided tail through the
// regularized incomplete beta function, and its quantile by bisection on that tail. Degrees of freedom need not be
// whole (Welch–Satterthwaite gives fractions). simple-statistics has the t statistic but not its distribution.
import { gammaln } from 'simple-statistics'

const EPSILON = 1e-15
const TINY = 1e-300
const MAX_TERMS = 1000

/**
 * The continued fraction of the incomplete beta function (Numerical Recipes, 3rd ed., §6.4, modified Lentz).
 * @param {number} x @param {number} a @param {number} b
 */
function betaContinuedFraction (x, a, b) {
  const clamp = (/** @type {number} */ value) => Math.abs(value) < TINY ? TINY : value
  let c = 1
  let d = 1 / clamp(1 - (a + b) * x / (a + 1))
  let fraction = d
  for (let m = 1; m <= MAX_TERMS; m++) {
    const even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
    d = 1 / clamp(1 + even * d)
    c = clamp(1 + even / c)
    fraction *= d * c
    const odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
    d = 1 / clamp(1 + odd * d)
    c = clamp(1 + odd / c)
    fraction *= d * c
    if (Math.abs(d * c - 1) < EPSILON) break
  }
  return fraction
}

/**
 * I_x(a, b), the regularized incomplete beta function.
 * @param {number} x in [0, 1]
 * @param {number} a > 0
 * @param {number} b > 0
 */
export function regularizedIncompleteBeta (x, a, b) {
  if (x <= 0) return 0
  if (x >= 1) return 1
  const front = Math.exp(gammaln(a + b) - gammaln(a) - gammaln(b) + a * Math.log(x) + b * Math.log1p(-x))
  // The fraction converges fast on the side of the mean; the other side by symmetry.
  return x < (a + 1) / (a + b + 2)
    ? front * betaContinuedFraction(x, a, b) / a
    : 1 - front * betaContinuedFraction(1 - x, b, a) / b
}

/**
 * P(|T| ≥ |t|) for T with `df` degrees of freedom: the two-sided p of a t statistic.
 * @param {number} t
 * @param {number} df > 0
 */
export function studentTTwoSidedP (t, df) {
  if (!(df > 0)) throw new RangeError(`degrees of freedom must be > 0, got ${df}`)
  if (!Number.isFinite(t)) return Number.isNaN(t) ? NaN : 0
  return regularizedIncompleteBeta(df / (df + t * t), df / 2, 0.5)
}

/**
 * The t with P(T ≤ t) = p for T with `df` degrees of freedom, by bisection on the tail (monotone, so this
 * converges to the last bits; a few calls per cell).
 * @param {number} p in (0, 1)
 * @param {number} df > 0
 */
export function studentTQuantile (p, df) {
  if (!(p > 0 && p < 1)) throw new RangeError(`a probability must be in (0, 1), got ${p}`)
  if (p < 0.5) return -studentTQuantile(1 - p, df)
  const tail = 2 * (1 - p)
  let low = 0
  let high = 1
  while (studentTTwoSidedP(high, df) > tail) high *= 2
  for (let step = 0; step < 200 && high - low > 1e-13 * high; step++) {
    const middle = (low + high) / 2
    if (studentTTwoSidedP(middle, df) > tail) low = middle
    else high = middle
  }
  return (low + high) / 2
}

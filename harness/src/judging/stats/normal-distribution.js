// @ts-check
/**
 * The standard normal distribution's tail and quantile, accurate to ~1e-15 (relative) so that
 * normal-approximation p-values agree with scipy's to many digits, tails included.
 */

/** Chebyshev coefficients of erfc (Numerical Recipes, 3rd ed., §6.2.2). */
const ERFC_COEFFICIENTS = [-1.3026537197817094, 0.6419697923564902,
  1.9476473204185836e-2, -9.561514786808631e-3, -9.46595344482036e-4,
  3.66839497852761e-4, 4.2523324806907e-5, -2.0278578112534e-5,
  -1.624290004647e-6, 1.303655835580e-6, 1.5626441722e-8, -8.5238095915e-8,
  6.529054439e-9, 5.059343495e-9, -9.91364156e-10, -2.27365122e-10,
  9.6467911e-11, 2.394038e-12, -6.886027e-12, 8.94487e-13, 3.13092e-13,
  -1.12708e-13, 3.81e-16, 7.106e-15, -1.523e-15, -9.4e-17, 1.21e-16, -2.8e-17]

/** @param {number} z ≥ 0 */
function erfcNonNegative (z) {
  const t = 2 / (2 + z)
  const ty = 4 * t - 2
  let d = 0
  let dd = 0
  for (let index = ERFC_COEFFICIENTS.length - 1; index > 0; index--) {
    const previous = d
    d = ty * d - dd + ERFC_COEFFICIENTS[index]
    dd = previous
  }
  return t * Math.exp(-z * z + 0.5 * (ERFC_COEFFICIENTS[0] + ty * d) - dd)
}

/**
 * The complementary error function.
 * @param {number} x
 */
export function erfc (x) {
  return x >= 0 ? erfcNonNegative(x) : 2 - erfcNonNegative(-x)
}

/**
 * P(Z > z) for a standard normal Z (the survival function).
 * @param {number} z
 */
export function normalSurvival (z) {
  return 0.5 * erfc(z / Math.SQRT2)
}

/**
 * The z with P(Z > z) = p, by bisection on the survival function (monotone, so this converges
 * to the last bit; only a handful of calls per comparison).
 * @param {number} p in (0, 1)
 */
export function normalUpperQuantile (p) {
  if (!(p > 0 && p < 1)) throw new RangeError(`a tail probability must be in (0, 1), got ${p}`)
  let low = -40
  let high = 40
  for (let step = 0; step < 200 && high - low > 1e-15; step++) {
    const middle = (low + high) / 2
    if (normalSurvival(middle) > p) low = middle
    else high = middle
  }
  return (low + high) / 2
}

// @ts-check
// How the harness rounds the figures it writes. Two ways, kept apart because they differ on halves:
// `roundTo` is Math.round on the scaled value (halves up, towards +∞: -2.5 → -2), `roundToFixed` is
// what Number.prototype.toFixed does (the exact binary value, halves away from zero: -2.5 → -3).
// For the median, use simple-statistics' `median` (it throws on an empty array: guard at the call).

/**
 * @param {number} value
 * @param {number} digits decimals to keep, 0 … 20
 * @returns {number} Math.round(value × 10^digits) / 10^digits, e.g. roundTo(1.25, 1) = 1.3
 */
export function roundTo (value, digits) {
  const scale = 10 ** digits
  return Math.round(value * scale) / scale
}

/**
 * @param {number} value
 * @param {number} digits decimals to keep, 0 … 100
 * @returns {number} Number(value.toFixed(digits)), e.g. roundToFixed(-0.125, 2) = -0.13
 */
export function roundToFixed (value, digits) {
  return Number(value.toFixed(digits))
}

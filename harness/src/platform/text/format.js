// @ts-check
const integerFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })

/** @param {number | null | undefined} value */
export const formatInteger = (value) => value === null || value === undefined ? '-' : integerFormat.format(value)

/** @param {number | null | undefined} ms latency in ms, shown with µs precision below 10 ms */
export const formatMs = (ms) => ms === null || ms === undefined ? '-' : ms < 10 ? ms.toFixed(3) : ms.toFixed(1)

/** @param {number} totalSec @returns {string} `m:ss` */
export function formatClock (totalSec) {
  const seconds = Math.max(0, Math.round(totalSec))
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`
}

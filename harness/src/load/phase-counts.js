// @ts-check
// What one generator process counted in one phase, in a form that crosses IPC (histograms encoded), and how
// the counts of several processes driving the same SUT at once add up to one phase: exactly, histograms added,
// counts and windows summed.
import { createLatencyHistogram, decodeHistogram, encodeHistogram } from './latency-histogram.js'
import { windowsFromParts } from './timeseries.js'
import { roundTo } from '../platform/util/numbers.js'

/**
 * @typedef {object} RateFigures how well an open-model schedule was kept
 * @property {number} targetPerSec the rate asked for
 * @property {number} achievedSendPerSec requests sent / the time it took to send them
 * @property {number} maxSendLagMs the most a send fell behind its intended time
 * @property {string} [sendLagHistogramUs] how far behind its intended time each send was (µs, compressed base64); results written
 *   before it was recorded lack it
 *
 * @typedef {object} PortableCounts
 * @property {number} requests
 * @property {number} durationSec
 * @property {number[]} perSecond responses in each whole second
 * @property {string} histogramUs µs, one sample per response, compressed base64
 * @property {number} bytes
 * @property {number} errors timeouts included
 * @property {number} timeouts
 * @property {Record<string, number>} statusCounts
 * @property {number} mismatches
 * @property {boolean} stoppedEarly
 * @property {import('./timeseries.js').WindowPart[] | null} windows
 * @property {RateFigures} [rate] open model only
 */

/**
 * @param {PortableCounts[]} list the same phase, one entry per generator process
 * @returns {{ counts: import('./phase-summary.js').PhaseCounts, rate: RateFigures | null }}
 */
export function mergeCounts (list) {
  const histogram = createLatencyHistogram()
  for (const entry of list) histogram.add(decodeHistogram(entry.histogramUs))
  /** @type {Record<string, number>} */
  const statusCounts = {}
  for (const entry of list) {
    for (const [status, count] of Object.entries(entry.statusCounts)) statusCounts[status] = (statusCounts[status] ?? 0) + count
  }
  const sum = (/** @type {(entry: PortableCounts) => number} */ of) => list.reduce((total, entry) => total + of(entry), 0)
  const seconds = Math.max(0, ...list.map((entry) => entry.perSecond.length))
  const rates = list.map((entry) => entry.rate).filter((rate) => rate !== undefined)
  return {
    counts: {
      requests: sum((entry) => entry.requests),
      // The processes ran side by side: the phase lasted as long as the longest of them.
      durationSec: Math.max(...list.map((entry) => entry.durationSec)),
      perSecond: Array.from({ length: seconds }, (_, second) => sum((entry) => entry.perSecond[second] ?? 0)),
      histogram,
      bytes: sum((entry) => entry.bytes),
      errors: sum((entry) => entry.errors),
      timeouts: sum((entry) => entry.timeouts),
      statusCounts,
      mismatches: sum((entry) => entry.mismatches),
      stoppedEarly: list.some((entry) => entry.stoppedEarly),
      timeseries: list.every((entry) => entry.windows)
        ? windowsFromParts(list.map((entry) => /** @type {import('./timeseries.js').WindowPart[]} */ (entry.windows)))
        : null
    },
    rate: rates.length === 0
      ? null
      : {
          targetPerSec: rates.reduce((total, rate) => total + rate.targetPerSec, 0),
          achievedSendPerSec: roundTo(rates.reduce((total, rate) => total + rate.achievedSendPerSec, 0), 1),
          maxSendLagMs: Math.max(...rates.map((rate) => rate.maxSendLagMs)),
          ...mergedSendLag(rates)
        }
  }
}

/**
 * The send lags of processes sending one schedule between them, added; none when one of them did not record its lags.
 * @param {RateFigures[]} rates @returns {{ sendLagHistogramUs?: string }}
 */
function mergedSendLag (rates) {
  if (!rates.every((rate) => rate.sendLagHistogramUs !== undefined)) return {}
  const histogram = createLatencyHistogram()
  for (const rate of rates) histogram.add(decodeHistogram(/** @type {string} */ (rate.sendLagHistogramUs)))
  return { sendLagHistogramUs: encodeHistogram(histogram) }
}

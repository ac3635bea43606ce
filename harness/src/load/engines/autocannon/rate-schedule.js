// @ts-check
import { createLatencyHistogram, recordLatencyMs } from '../../latency-histogram.js'

/**
 * @typedef {object} ScheduleOutcome how well the generator kept the schedule
 * @property {number} startMs performance.now() at which request 0 was intended
 * @property {number} scheduled requests the window holds
 * @property {number} sent requests handed to `send` (all of them unless stopped early)
 * @property {number} lastSendMs performance.now() of the last send
 * @property {number} maxSendLagMs the most a send fell behind its intended time
 * @property {import('hdr-histogram-js').Histogram} sendLagUs how far behind its intended time each send was, in µs
 * @property {boolean} stoppedEarly
 */

/**
 * Sends on a fixed schedule: request k is intended at start + k × 1000 / ratePerSec, for every k whose
 * intended time falls inside the window of `durationSec`. One timer at a time drives it; each time it
 * fires, every request whose intended time has passed is sent at once (catching up after a late timer
 * or a pause of the generator), so no scheduled request is ever skipped. `send` gets the intended time,
 * from which the caller measures latency.
 * @param {{ ratePerSec: number, durationSec: number, send: (intendedMs: number) => void, isStopped?: () => boolean }} options
 * @returns {Promise<ScheduleOutcome>}
 */
export function runSchedule ({ ratePerSec, durationSec, send, isStopped = () => false }) {
  if (!(ratePerSec > 0) || !Number.isFinite(ratePerSec)) throw new RangeError(`ratePerSec must be a positive number, got ${ratePerSec}`)
  if (!(durationSec > 0) || !Number.isFinite(durationSec)) throw new RangeError(`durationSec must be a positive number, got ${durationSec}`)
  const intervalMs = 1000 / ratePerSec
  // A hair under the product, so that 4 s × 500/s is 2000 requests and not 2001 through rounding.
  const scheduled = Math.max(1, Math.ceil(durationSec * ratePerSec - 1e-9))
  const startMs = performance.now()
  let sent = 0
  let lastSendMs = startMs
  let maxSendLagMs = 0
  const sendLagUs = createLatencyHistogram()

  return new Promise((resolve) => {
    const finish = (/** @type {boolean} */ stoppedEarly) =>
      resolve({ startMs, scheduled, sent, lastSendMs, maxSendLagMs, sendLagUs, stoppedEarly })
    const tick = () => {
      if (isStopped()) return finish(true)
      let nowMs = performance.now()
      while (sent < scheduled) {
        const intendedMs = startMs + sent * intervalMs
        if (intendedMs > nowMs) break
        if (nowMs - intendedMs > maxSendLagMs) maxSendLagMs = nowMs - intendedMs
        recordLatencyMs(sendLagUs, nowMs - intendedMs)
        sent += 1
        send(intendedMs)
        lastSendMs = nowMs
        nowMs = performance.now()
      }
      if (sent === scheduled) return finish(false)
      // Node fires timers no earlier than 1 ms and with ms resolution: a late timer is caught up above.
      setTimeout(tick, startMs + sent * intervalMs - nowMs)
    }
    tick()
  })
}

// @ts-check
// Loaded into a Node SUT by the harness (NODE_OPTIONS=--import=<this file's URL>), never imported by
// SUT code. Every DYNO_EVENT_LOOP_INTERVAL_MS it appends one JSON line with the event-loop delay of
// that interval to DYNO_EVENT_LOOP_FILE, then starts the next interval afresh. It never writes to
// stdout (the harness reads the ready line there), never throws into the SUT, and its timers are
// unref'd, so it never keeps a SUT alive. Without DYNO_EVENT_LOOP_FILE it does nothing.
//
// It measures what perf_hooks.monitorEventLoopDelay({ resolution: 10 }) measures (how late a 10 ms
// timer fires) with a 10 ms timer of its own feeding a perf_hooks histogram, because the monitor
// cannot be read per interval: its reset() also forgets its last tick, so a stall that ends just
// before a reset, or starts just after one, is never recorded (5-10 % of short stalls were lost with
// 100 ms intervals; none this way).
import { appendFileSync } from 'node:fs'
import { createHistogram } from 'node:perf_hooks'

/** The timer period: fine enough for stalls, and 100 tiny callbacks a second. */
const RESOLUTION_MS = 10
const RESOLUTION_NS = RESOLUTION_MS * 1e6
const file = process.env.DYNO_EVENT_LOOP_FILE
const requestedMs = Number(process.env.DYNO_EVENT_LOOP_INTERVAL_MS)
const intervalMs = Number.isFinite(requestedMs) && requestedMs >= RESOLUTION_MS ? requestedMs : 1000

if (file) {
  const histogram = createHistogram()
  let previousNs = process.hrtime.bigint()
  /** Records how late the timer fired: the time since its previous tick beyond the 10 ms period. */
  const tick = () => {
    const nowNs = process.hrtime.bigint()
    histogram.record(Math.max(1, Number(nowNs - previousNs) - RESOLUTION_NS))
    previousNs = nowNs
  }
  const ms = (/** @type {number} */ ns) => Math.round(ns / 1e4) / 100

  const flush = () => {
    if (histogram.count === 0) return
    const line = JSON.stringify({
      pid: process.pid,
      tMs: Date.now(),
      meanMs: ms(histogram.mean),
      p50Ms: ms(histogram.percentile(50)),
      p99Ms: ms(histogram.percentile(99)),
      maxMs: ms(histogram.max)
    }) + '\n'
    histogram.reset()
    try {
      appendFileSync(file, line)
    } catch {
      // The file went away (the harness cleaned up): stop measuring, stay silent.
      clearInterval(ticker)
      clearInterval(flusher)
    }
  }

  const ticker = setInterval(tick, RESOLUTION_MS)
  ticker.unref()
  const flusher = setInterval(flush, intervalMs)
  flusher.unref()
  // The last partial interval, when the SUT exits on its own or on SIGTERM (not on SIGKILL); a stall
  // that ends in the exit shows as a tick as late as it was.
  process.once('exit', () => {
    if (process.hrtime.bigint() - previousNs > BigInt(RESOLUTION_NS)) tick()
    flush()
  })
}

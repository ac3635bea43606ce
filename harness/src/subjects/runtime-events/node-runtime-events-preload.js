// @ts-check
// Loaded into a Node SUT by the harness (NODE_OPTIONS=--import=<this file's URL>) when a run collects the runtime's events; never
// imported by SUT code. It does two things and nothing else:
// - every garbage collection perf_hooks reports (its kind, when it started, how long it paused the thread) is appended, one JSON line
//   each, to DYNO_RUNTIME_EVENTS_FILE, in batches every DYNO_RUNTIME_EVENTS_FLUSH_MS, so that no file write happens per collection;
// - one anchor line ties the V8 log's clock (µs since V8 started logging) to the epoch: it compiles a function whose source holds
//   ANCHOR_MARK at a known epoch time, and the harness finds that compilation in the V8 log (v8-log.js).
// It never writes to stdout (the harness reads the ready line there), never throws into the SUT, and its timer is unref'd.
import { appendFileSync } from 'node:fs'
import { PerformanceObserver, constants, performance } from 'node:perf_hooks'

/** The text the anchor function's source holds: v8-log.js looks for it in the log's script-source lines. */
const ANCHOR_MARK = 'dyno-v8-log-anchor'
const GC_KINDS = new Map([
  [constants.NODE_PERFORMANCE_GC_MINOR, 'minor'],
  [constants.NODE_PERFORMANCE_GC_MAJOR, 'major'],
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL, 'incremental'],
  [constants.NODE_PERFORMANCE_GC_WEAKCB, 'weak callbacks']
])
const file = process.env.DYNO_RUNTIME_EVENTS_FILE
const requestedMs = Number(process.env.DYNO_RUNTIME_EVENTS_FLUSH_MS)
const flushMs = Number.isFinite(requestedMs) && requestedMs >= 50 ? requestedMs : 250

if (file) {
  /** @type {string[]} */
  let pending = []
  let stopped = false
  const write = (/** @type {string} */ text) => {
    try {
      appendFileSync(file, text)
    } catch {
      // The file went away (the harness cleaned up): stop collecting, stay silent.
      stopped = true
      observer.disconnect()
      clearInterval(flusher)
    }
  }
  const flush = () => {
    if (pending.length === 0 || stopped) return
    const text = pending.join('')
    pending = []
    write(text)
  }
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const detail = /** @type {{ detail?: { kind?: number } }} */ (/** @type {unknown} */ (entry)).detail
      const kind = GC_KINDS.get(detail?.kind ?? -1) ?? 'other'
      pending.push(`{"pid":${process.pid},"gc":"${kind}","atMs":${performance.timeOrigin + entry.startTime},"pauseMs":${entry.duration}}\n`)
    }
  })
  observer.observe({ entryTypes: ['gc'] })
  const flusher = setInterval(flush, flushMs)
  flusher.unref()
  process.once('exit', flush)

  // The anchor: the epoch time now, then a compilation the V8 log stamps with its own clock (when V8 logs code at all).
  const anchorEpochMs = performance.timeOrigin + performance.now()
  // eslint-disable-next-line no-new-func -- a fresh script is the one event the V8 log stamps that this file can cause at a known time
  new Function(`/*${ANCHOR_MARK}*/ return 0`)()
  write(`{"pid":${process.pid},"anchorEpochMs":${anchorEpochMs}}\n`)
}

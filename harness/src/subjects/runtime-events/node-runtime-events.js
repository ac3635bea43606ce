// @ts-check
// The runtime events of a Node SUT: V8's log of compilations and deoptimisations (node flags; V8 writes one file per process into the
// probe's directory), and the collections perf_hooks reports, written by a preload (node-runtime-events-preload.js). V8's own trace
// of each deoptimisation, which --log-deopt also prints, goes to a file in the same directory: the SUT's stdout carries only its
// ready line. Every file in that directory is the SUT's to write: each is read as data (v8-log.js; the events file below line by
// line, each line checked, a known kind or `other`, numbers as numbers), and a file past its bound is refused for the process.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { createAppendedLineReader } from '../../platform/util/appended-lines.js'
import { createV8LogReader } from './v8-log.js'

const PRELOAD_URL = new URL('./node-runtime-events-preload.js', import.meta.url).href
const EVENTS_FILE = 'gc-and-anchors.jsonl'
const LOG_NAME = 'v8.log'
/** V8 names each process's log `isolate-<address>-<pid>-v8.log`. */
const LOG_FILE = /^isolate-0x[0-9a-f]+-(\d+)-v8\.log$/
/** The collections the preload reports (it writes `other` for a kind perf_hooks adds later). */
const GC_KINDS = ['minor', 'major', 'incremental', 'weak callbacks']
/** The events file: a line per collection, a few hundred a second at most under load. */
const MAX_EVENTS_BYTES = 256 * 1024 * 1024
/** More V8 logs than a SUT has processes (`--workers` is at most the machine's cpus): the rest are not read. */
const MAX_V8_LOGS = 256

/** @type {import('./runtime-event-sources.js').RuntimeEventSource} */
export const NODE_RUNTIME_EVENTS = {
  name: 'v8',
  describes: 'V8 log (--log-code --log-deopt) and perf_hooks gc entries',
  gcKinds: GC_KINDS,
  tiers: ['sparkplug', 'maglev', 'turbofan'],
  deopts: true,
  eventLoopDelay: true,
  // Concurrent marking and compilation run on V8's worker threads: their cpu is what the main thread's pauses do not show.
  threadCpu: true,
  needsSharedFilesystem: true,
  unavailable: null,
  prepare ({ dir, windowMs, inheritedNodeOptions }) {
    const eventsFile = join(dir, EVENTS_FILE)
    const eventLines = createAppendedLineReader(eventsFile, { maxBytes: MAX_EVENTS_BYTES, what: 'the collections file' })
    /** @type {Map<number, number>} pid → epoch ms of its anchor */
    const anchors = new Map()
    /** @type {import('./runtime-event-sources.js').GcEvent[]} */
    const gc = []
    /** @type {Map<string, ReturnType<typeof createV8LogReader>>} */
    const readers = new Map()
    return {
      args: [`--logfile=${join(dir, LOG_NAME)}`, '--log-code', '--log-deopt', '--redirect-code-traces',
        `--redirect-code-traces-to=${join(dir, 'deopt-traces.txt')}`],
      env: {
        NODE_OPTIONS: `${inheritedNodeOptions} --import=${PRELOAD_URL}`.trim(),
        DYNO_RUNTIME_EVENTS_FILE: eventsFile,
        DYNO_RUNTIME_EVENTS_FLUSH_MS: String(windowMs)
      },
      eventLoopIntervalMs: windowMs,
      onStderr: null,
      launched () {},
      collect () {
        for (const line of eventLines.read()) readEventLine(line, anchors, gc)
        /** @type {import('./runtime-event-sources.js').RuntimeEvents} */
        const events = { gc: gc.slice(), optimized: [], deopts: [], refused: eventLines.refused }
        for (const name of listDir(dir)) {
          const match = LOG_FILE.exec(name)
          if (!match) continue
          let reader = readers.get(name)
          if (!reader) {
            if (readers.size >= MAX_V8_LOGS) continue
            readers.set(name, reader = createV8LogReader(join(dir, name)))
          }
          reader.read()
          events.refused ??= reader.refused
          const anchorEpochMs = anchors.get(Number(match[1]))
          const anchorLogUs = reader.anchorLogUs
          // A process without its anchor (it loaded no preload) has events on no clock: they are left out rather than misplaced.
          if (anchorEpochMs === undefined || anchorLogUs === null) continue
          const epochMs = (/** @type {number} */ logUs) => anchorEpochMs + (logUs - anchorLogUs) / 1000
          for (const { logUs, ...event } of reader.optimized) events.optimized.push({ atMs: epochMs(logUs), ...event })
          for (const { logUs, ...event } of reader.deopts) events.deopts.push({ atMs: epochMs(logUs), ...event })
        }
        return events
      }
    }
  }
}

/**
 * One line of the events file, as the preload writes it: an anchor (`{"pid","anchorEpochMs"}`) or a collection (`{"pid","gc","atMs",
 * "pauseMs"}`). A line that is not one of them, a time or a pause that is not a finite number, is left out; a kind the preload does
 * not write is counted as `other`.
 * @param {string} line @param {Map<number, number>} anchors @param {import('./runtime-event-sources.js').GcEvent[]} gc
 */
function readEventLine (line, anchors, gc) {
  let entry
  try {
    entry = JSON.parse(line)
  } catch {
    return // a torn last line: the SUT was killed mid-write
  }
  if (!entry || typeof entry !== 'object' || Array.isArray(entry) || !Number.isSafeInteger(entry.pid) || entry.pid <= 0) return
  if (entry.anchorEpochMs !== undefined) {
    if (Number.isFinite(entry.anchorEpochMs)) anchors.set(entry.pid, entry.anchorEpochMs)
    return
  }
  if (typeof entry.gc !== 'string' || !Number.isFinite(entry.atMs) || !Number.isFinite(entry.pauseMs) || entry.pauseMs < 0) return
  gc.push({ atMs: entry.atMs, kind: GC_KINDS.includes(entry.gc) ? entry.gc : 'other', pauseMs: entry.pauseMs })
}

/** @param {string} dir @returns {string[]} */
function listDir (dir) {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}

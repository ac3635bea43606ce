// @ts-check
// The runtime events of a Node SUT: V8's log of compilations and deoptimisations (node flags; V8 writes one file per process into the
// probe's directory), and the collections perf_hooks reports, written by a preload (node-runtime-events-preload.js). V8's own trace
// of each deoptimisation, which --log-deopt also prints, goes to a file in the same directory: the SUT's stdout carries only its
// ready line.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createV8LogReader } from './v8-log.js'

const PRELOAD_URL = new URL('./node-runtime-events-preload.js', import.meta.url).href
const EVENTS_FILE = 'gc-and-anchors.jsonl'
const LOG_NAME = 'v8.log'
/** V8 names each process's log `isolate-<address>-<pid>-v8.log`. */
const LOG_FILE = /^isolate-0x[0-9a-f]+-(\d+)-v8\.log$/

/** @type {import('./runtime-event-sources.js').RuntimeEventSource} */
export const NODE_RUNTIME_EVENTS = {
  name: 'v8',
  describes: 'V8 log (--log-code --log-deopt) and perf_hooks gc entries',
  gcKinds: ['minor', 'major', 'incremental', 'weak callbacks'],
  tiers: ['sparkplug', 'maglev', 'turbofan'],
  deopts: true,
  eventLoopDelay: true,
  // Concurrent marking and compilation run on V8's worker threads: their cpu is what the main thread's pauses do not show.
  threadCpu: true,
  needsSharedFilesystem: true,
  unavailable: null,
  prepare ({ dir, windowMs, inheritedNodeOptions }) {
    const eventsFile = join(dir, EVENTS_FILE)
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
        /** @type {Map<number, number>} pid → epoch ms of its anchor */
        const anchors = new Map()
        /** @type {import('./runtime-event-sources.js').RuntimeEvents} */
        const events = { gc: [], optimized: [], deopts: [] }
        for (const line of readLines(eventsFile)) {
          let entry
          try {
            entry = JSON.parse(line)
          } catch {
            continue // a torn last line: the SUT was killed mid-write
          }
          if (typeof entry.anchorEpochMs === 'number') anchors.set(entry.pid, entry.anchorEpochMs)
          else if (typeof entry.gc === 'string') events.gc.push({ atMs: entry.atMs, kind: entry.gc, pauseMs: entry.pauseMs })
        }
        for (const name of listDir(dir)) {
          const match = LOG_FILE.exec(name)
          if (!match) continue
          let reader = readers.get(name)
          if (!reader) readers.set(name, reader = createV8LogReader(join(dir, name)))
          reader.read()
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

/** @param {string} file @returns {string[]} */
function readLines (file) {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean)
  } catch {
    return []
  }
}

/** @param {string} dir @returns {string[]} */
function listDir (dir) {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}

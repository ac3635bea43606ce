// @ts-check
// The registry of what each runtime can tell about what it did while it served: one source per runtime kind, each owning how it is
// switched on (flags, environment) and how its events are read back. A runtime without one has a reason instead, and its cells record
// that reason, never zeros. Adding a runtime's events is one file and one entry here.
import { GO_RUNTIME_EVENTS } from './go-runtime-events.js'
import { NODE_RUNTIME_EVENTS } from './node-runtime-events.js'

/**
 * @typedef {object} GcEvent @property {number} atMs epoch ms the collection started @property {string} kind @property {number} pauseMs
 * @typedef {object} OptimizedEvent @property {number} atMs @property {string} tier @property {string} fn
 * @typedef {object} DeoptEvent @property {number} atMs @property {string} kind @property {string} reason @property {string} category
 *   @property {string} fn @property {string} position
 * @typedef {object} RuntimeEvents everything collected so far from one SUT process group
 * @property {GcEvent[]} gc a kind the source does not declare is `other`
 * @property {OptimizedEvent[]} optimized
 * @property {DeoptEvent[]} deopts
 * @property {string | null} refused why what the runtime wrote is not read (a file or an output past its bound, a FIFO where a log
 *   should be); null: it is
 *
 * @typedef {object} RuntimeEventProbe one SUT process's collection, switched on at its launch
 * @property {string[]} args runtime flags, before the SUT's own arguments
 * @property {Record<string, string>} env
 * @property {number | null} eventLoopIntervalMs the event-loop probe's interval this source wants (one line per window); null: none
 * @property {((chunk: Buffer) => void) | null} onStderr fed with the SUT's stderr, for a runtime that reports there
 * @property {(epochMs: number) => void} launched the moment the SUT was launched
 * @property {() => RuntimeEvents} collect every event so far, on the epoch clock
 *
 * @typedef {object} RuntimeEventSource
 * @property {string} name recorded with the events
 * @property {string} describes where the events come from, in words
 * @property {string[]} gcKinds the kinds of collection it tells apart (any other kind it reads is counted as `other`)
 * @property {string[] | null} tiers the compiler tiers it reports; null: it reports no compilation
 * @property {boolean} deopts whether it reports deoptimisations
 * @property {boolean} eventLoopDelay whether the event-loop probe runs beside it
 * @property {boolean} threadCpu whether the cpu time of the process's main thread and of its other threads is read per window (what
 *   the runtime's background threads do beside the program)
 * @property {boolean} needsSharedFilesystem its events are files beside the SUT: only read when the SUT runs on this machine's disk
 * @property {string | null} unavailable why this runtime reports nothing; null: it reports
 * @property {(options: { dir: string, windowMs: number, inheritedNodeOptions: string }) => RuntimeEventProbe} prepare
 */

/** @param {string} reason @returns {RuntimeEventSource} a runtime that tells nothing dyno reads, and why */
const silent = (reason) => ({
  name: 'none',
  describes: 'none',
  gcKinds: [],
  tiers: null,
  deopts: false,
  eventLoopDelay: false,
  threadCpu: false,
  needsSharedFilesystem: false,
  unavailable: reason,
  prepare () { throw new Error(`no runtime events: ${reason}`) }
})

/** @type {Readonly<Record<string, RuntimeEventSource>>} by the SUT's runtime kind */
export const RUNTIME_EVENT_SOURCES = Object.freeze({
  node: NODE_RUNTIME_EVENTS,
  go: GO_RUNTIME_EVENTS,
  bun: silent('Bun runs JavaScriptCore: it takes neither the V8 log flags nor a perf_hooks gc observer that reports its collections'),
  deno: silent('Deno takes V8 flags only through --v8-flags and no Node preload: dyno does not read its runtime yet'),
  python: silent("CPython reports collections only to gc.callbacks registered by code inside the process, and dyno leaves a SUT's code " +
    'as it is; it has no JIT to report')
})

/** @param {string} kind the SUT's runtime kind @returns {RuntimeEventSource} */
export function runtimeEventSourceFor (kind) {
  return RUNTIME_EVENT_SOURCES[kind] ?? silent(`dyno has no reader of the runtime events of ${kind}`)
}

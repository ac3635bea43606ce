// @ts-check
// The runtime events of a Go SUT: its collector's cycles, as GODEBUG=gctrace=1 has the runtime write them to stderr (go-gc-trace.js).
// Go compiles ahead of time, so there are no tiers and no deoptimisations to report; it has no event loop either. A cycle's time is
// counted from the program's start, which is taken as the moment the harness launched it (a few ms early: the exec and the runtime's
// start come after it).
import { parseGoGcLine } from './go-gc-trace.js'

/** A gctrace line is 150 characters: a longer stretch of stderr without a line break is not one, and is dropped. */
const MAX_LINE_CHARS = 64 * 1024
/** A cycle every few ms for an hour: more is not a collector's trace, and the SUT's events are refused. */
const MAX_CYCLES = 1_000_000

/** @type {import('./runtime-event-sources.js').RuntimeEventSource} */
export const GO_RUNTIME_EVENTS = {
  name: 'go-gctrace',
  describes: 'Go runtime collector trace (GODEBUG=gctrace=1 on stderr)',
  gcKinds: ['cycle', 'forced'],
  tiers: null,
  deopts: false,
  eventLoopDelay: false,
  // The collector's workers are goroutines on any of the runtime's threads: no thread is the program's alone.
  threadCpu: false,
  needsSharedFilesystem: false,
  unavailable: null,
  prepare () {
    /** @type {import('./runtime-event-sources.js').GcEvent[]} */
    const cycles = []
    let launchedAtMs = 0
    let carry = ''
    /** @type {string | null} */
    let refused = null
    const inherited = process.env.GODEBUG
    return {
      args: [],
      env: { GODEBUG: inherited ? `${inherited},gctrace=1` : 'gctrace=1' },
      eventLoopIntervalMs: null,
      onStderr (chunk) {
        if (refused !== null) return
        const lines = (carry + chunk.toString()).split('\n')
        carry = lines.pop() ?? ''
        if (carry.length > MAX_LINE_CHARS) carry = ''
        for (const line of lines) {
          const cycle = parseGoGcLine(line)
          if (!cycle) continue
          if (cycles.length >= MAX_CYCLES) {
            refused = `the SUT's stderr held more than ${MAX_CYCLES} gctrace lines`
            break
          }
          cycles.push({ atMs: launchedAtMs + cycle.sinceStartMs, kind: cycle.forced ? 'forced' : 'cycle', pauseMs: cycle.pauseMs })
        }
      },
      launched (epochMs) { launchedAtMs = epochMs },
      collect () {
        return { gc: cycles.slice(), optimized: [], deopts: [], refused }
      }
    }
  }
}

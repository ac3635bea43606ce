// @ts-check
import { createLogUpdate } from 'log-update'
import { formatClock, formatInteger } from '../../platform/text/format.js'

/** Seconds a run spends beyond its load phases (start, verify, stop), for the time estimate before any run is done. */
const RUN_OVERHEAD_SEC = 1

/**
 * Shows what the harness is doing: on a terminal one live line (which SUT and scenario, elapsed and
 * total time, live req/s); elsewhere (CI, pipes) one plain line per stage, without repetition.
 * @param {NodeJS.WritableStream & { isTTY?: boolean }} stream
 * @param {{ warmupSec: number, durationSec: number, launchWarmupSec?: number }} load launchWarmupSec: a launch's on each route (one per
 *   cell)
 */
export function createProgress (stream, load) {
  const live = stream.isTTY ? createLogUpdate(stream) : null
  const perRunSec = (load.launchWarmupSec ?? 0) + load.warmupSec + load.durationSec + RUN_OVERHEAD_SEC
  const startedAt = Date.now()
  /** @type {number | null} when the first run started: the pace of the runs done since then estimates the rest */
  let firstRunAt = null
  /** the furthest place in the plan reached: cells measured again after the plan come back to earlier places */
  let furthest = 0
  let lastPlainLine = ''

  return {
    /**
     * @param {{ index: number, total: number, sut: string, scenario: string, stage: string, phase?: string, elapsedSec?: number,
     *   requestsPerSec?: number | null }} event
     */
    update (event) {
      const head = `[${event.index + 1}/${event.total}] ${event.sut} × ${event.scenario}`
      const stage =
        event.stage === 'load'
          ? `${event.phase} ${event.elapsedSec}/${event.phase === 'warmup' ? load.warmupSec : load.durationSec} s  ` +
            `${formatInteger(event.requestsPerSec)} req/s`
          : event.stage
      firstRunAt ??= Date.now()
      if (live) {
        const now = Date.now()
        const elapsedSec = (now - startedAt) / 1000
        // Once a run is done, the rest at the pace so far (a SUT's consecutive cells share its process, and cells are measured
        // again when disturbed: neither is in the plan's own estimate); before that, the plan's.
        furthest = Math.max(furthest, event.index)
        const paceSec = furthest > 0 ? (now - firstRunAt) / 1000 / furthest : perRunSec
        const totalSec = Math.max(elapsedSec, (firstRunAt - startedAt) / 1000 + event.total * paceSec)
        // One line: cut to the terminal's width, so that it never wraps into two.
        const line = `${head}  ${stage}   (elapsed ${formatClock(elapsedSec)} of ~${formatClock(totalSec)})`
        const width = /** @type {{ columns?: number }} */ (stream).columns ?? 0
        live(width > 1 && line.length > width - 1 ? `${line.slice(0, width - 2)}…` : line)
        return
      }
      const plain = event.stage === 'load' ? `${head}  ${event.phase}` : `${head}  ${stage}`
      if (plain !== lastPlainLine) stream.write(plain + '\n')
      lastPlainLine = plain
    },
    /** @param {string} line a line that stays (a finished run) */
    log (line) {
      if (live) {
        live.clear()
        stream.write(line + '\n')
      } else {
        stream.write(line + '\n')
      }
    },
    done () {
      live?.clear()
      live?.done()
    }
  }
}

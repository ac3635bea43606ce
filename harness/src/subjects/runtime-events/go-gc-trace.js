// @ts-check
// Reads the lines Go's runtime writes to stderr with GODEBUG=gctrace=1, one per collection cycle:
//   gc 12 @3.456s 2%: 0.021+1.2+0.015 ms clock, 0.042+0.3/0.9/0.1+0.030 ms cpu, 4->4->1 MB, 5 MB goal, 0 MB stacks, 0 MB globals, 2 P
// `@3.456s` is the time since the program started; of the three wall-clock phases, the first (sweep termination) and the third (mark
// termination) stop the world, and their sum is the cycle's pause. The middle one, concurrent marking, runs beside the program.
// A cycle the program forced (runtime.GC()) ends in "(forced)".

import { roundTo } from '../../platform/util/numbers.js'

const GC_LINE = /^gc (\d+) @([\d.]+)s \d+%: ([\d.]+)\+([\d.]+)\+([\d.]+) ms clock.*?(\(forced\))?\s*$/

/**
 * @typedef {object} GoGcCycle
 * @property {number} sinceStartMs since the program started
 * @property {number} pauseMs stop-the-world time: sweep termination and mark termination
 * @property {number} concurrentMarkMs
 * @property {boolean} forced
 */

/** @param {string} line @returns {GoGcCycle | null} null: not a gctrace line */
export function parseGoGcLine (line) {
  const match = GC_LINE.exec(line.trim())
  if (!match) return null
  // Digits and dots are not yet a number (`1.2.3`): each figure is checked as one.
  const [sinceStartSec, sweepMs, markMs, markTerminationMs] = [match[2], match[3], match[4], match[5]].map(Number)
  if (![sinceStartSec, sweepMs, markMs, markTerminationMs].every(Number.isFinite)) return null
  return {
    sinceStartMs: sinceStartSec * 1000,
    pauseMs: roundTo(sweepMs + markTerminationMs, 6),
    concurrentMarkMs: markMs,
    forced: match[6] !== undefined
  }
}

// @ts-check
// How long one cell of a plan is expected to take, from the plan alone (never from this machine's history, so that every
// job of a CI matrix computes the same figure and draws the same parts). Used to balance the parts of `--shard` and to say
// how many parts a plan needs; a cell that takes longer than expected makes its part late, never its figures wrong.

/**
 * Seconds a wall-clock cell spends besides its warm-up and measured load: the SUT's start (once per SUT for its consecutive
 * cells), verification, and writing the result. The default `pnpm bench` of 2026-11-26 here: 192 cells of 1 + 2 s in 584.9 s.
 */
const WALL_CLOCK_OVERHEAD_SEC = 0.05

/**
 * A count: the SUT's start under valgrind, then every request at callgrind's pace. Measured here on 2026-11-26: a count of 700
 * requests takes 7 s (node-http) to 11 s (express), most of it the start; the default count (10,000 + 8 × 750 requests) of
 * plaintext, json and params takes 18, 27, 38 and 81 s on node-http, fastify, koa and express.
 */
const COUNT_START_SEC = 9
const COUNT_PLAINTEXT_MS_PER_REQUEST = 2.5

/**
 * @param {{ countWeight: number }} scenario its weight in a count (scenarios/src/contract/define-scenario.js)
 * @param {{ measure: string, warmupSec: number, durationSec: number, countWarmupRequests?: number, countWindows?: number,
 *   countWindowRequests?: number }} settings the run's load settings (the count's with --measure instructions)
 * @returns {number} seconds
 */
export function expectedCellSec (scenario, settings) {
  if (settings.measure !== 'instructions') return settings.warmupSec + settings.durationSec + WALL_CLOCK_OVERHEAD_SEC
  const requests = (settings.countWarmupRequests ?? 0) + (settings.countWindows ?? 0) * (settings.countWindowRequests ?? 0)
  return COUNT_START_SEC + requests * COUNT_PLAINTEXT_MS_PER_REQUEST * scenario.countWeight / 1000
}

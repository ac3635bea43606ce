// @ts-check
// A request's cpu cost at one cpu speed: each measured cost divided by how slow the probe found the SUT's cpus in the same phase
// (platform/resources/speed-probe/), times the set's median probe reading. A cpu slowed without being taken (a busy sibling thread,
// caches another guest left cold) raises the cpu time a request costs, and the probe's chunk with it, from one second to the next; the
// ratio does not move with it, and the median keeps the figure in µs of the set's typical speed. Costs are adjusted only where every
// one of the set was probed: a set half adjusted would order cells by whether they were.
import { median } from 'simple-statistics'

/** The fewest chunks a phase's reading must hold: fewer is a window too short (or a probe too starved) to say the cpu's speed. */
export const MIN_PROBE_CHUNKS = 5

/**
 * @typedef {{ cpuUsPerRequest: number | null, speedProbe?: import('../platform/resources/speed-probe/speed-probe.js').SpeedReading |
 *   null }} ProbedCost a phase's cost (CpuCost's fields read here)
 *
 * @typedef {object} SpeedAdjustment
 * @property {number} referenceCpuUsPerChunk the set's median probe reading: the speed every cost is given at
 * @property {(cost: ProbedCost) => number | null} adjust a cost of the set at the reference speed; null: it has no cost
 */

/**
 * The adjustment of a set of costs (a run's, a calibration's), or null where one of them has a cost but no reading of enough chunks.
 * @param {(ProbedCost | null | undefined)[]} costs
 * @returns {SpeedAdjustment | null}
 */
export function speedAdjustment (costs) {
  const measured = /** @type {ProbedCost[]} */ (costs.filter((cost) => (cost?.cpuUsPerRequest ?? 0) > 0))
  if (measured.length === 0 || !measured.every(probedEnough)) return null
  const referenceCpuUsPerChunk = median(measured.map((cost) => /** @type {number} */ (cost.speedProbe?.cpuUsPerChunk)))
  return {
    referenceCpuUsPerChunk,
    adjust (cost) {
      if (!((cost.cpuUsPerRequest ?? 0) > 0) || !probedEnough(cost)) return null
      return /** @type {number} */ (cost.cpuUsPerRequest) * referenceCpuUsPerChunk / /** @type {number} */ (cost.speedProbe?.cpuUsPerChunk)
    }
  }
}

/** @param {ProbedCost} cost */
const probedEnough = (cost) => (cost.speedProbe?.chunks ?? 0) >= MIN_PROBE_CHUNKS && (cost.speedProbe?.cpuUsPerChunk ?? 0) > 0

// @ts-check
import { GENERATOR_BOUND_SHARE, GENERATOR_BUSY_SHARE, SUT_IDLE_SHARE } from './resource-defaults.js'
import { cpuCost, requestsPerCpuSecOf } from './cpu-cost.js'
import { roundTo } from '../util/numbers.js'

/**
 * Whether the load generator, not the SUT, set the pace: each generator thread (an autocannon process, a
 * wrk or native thread) drives its connections from one core, so the allotment is min(generatorThreads,
 * allottedCores) cores. Bound when it used at least GENERATOR_BOUND_SHARE of it, or (partial saturation) at least
 * GENERATOR_BUSY_SHARE while the SUT, pinned, used less than SUT_IDLE_SHARE of its cpus.
 * @param {{ cpuSec: number, wallSec: number, allottedCores: number, generatorThreads?: number, sutShare?: number | null }} usage
 *   allottedCores: the cores the generator may run on (the pinned set, or every core when not pinned);
 *   sutShare: the share of its pinned cpus the SUT used (null: not pinned, so unknown)
 * @returns {{ generatorBound: boolean, generatorCpuPct: number }} generatorCpuPct in % of one core
 */
export function generatorBound ({ cpuSec, wallSec, allottedCores, generatorThreads = 1, sutShare = null }) {
  if (!(wallSec > 0) || !(cpuSec >= 0) || !(allottedCores > 0)) return { generatorBound: false, generatorCpuPct: 0 }
  const coresUsed = cpuSec / wallSec
  const share = coresUsed / Math.min(generatorThreads, allottedCores)
  return {
    generatorBound: share >= GENERATOR_BOUND_SHARE || (share >= GENERATOR_BUSY_SHARE && sutShare !== null && sutShare < SUT_IDLE_SHARE),
    generatorCpuPct: Math.round(coresUsed * 1000) / 10
  }
}

/**
 * @typedef {object} PhaseResourceFigures what one phase summary gains from its resource report
 * @property {import('./resource-sampler.js').ResourceReport} resources
 * @property {import('./cpu-cost.js').CpuCost | null} cpuCost what a response cost the SUT in cpu; null when the SUT was not
 *   sampled
 * @property {number | null} requestsPerCpuSec the phase's responses per CPU second of the SUT (from cpuCost)
 * @property {boolean} generatorBound
 * @property {number | null} generatorCpuPct null when the generator was not sampled
 * @property {number | null} generatorHeadroomPct how far the generator was from its limit: 100 − the share of its allotment it used
 *   (min(threads, cpus) cores), in %; null when it was not sampled
 */

/**
 * @param {import('./resource-sampler.js').ResourceReport} report of the phase's window, with targets `sut` and `generator`
 * @param {{ requests: number, generatorCores: number, generatorThreads?: number, sutCores?: number | null, sutHostCores: number,
 *   cgroupCpuSec?: number | null, speed?: import('./speed-probe/speed-probe.js').SpeedReading | null }} phase generatorCores: the
 *   cpus the generator may use; sutCores: the cpus the SUT is pinned to (null: not pinned); sutHostCores: every cpu of the SUT's host;
 *   cgroupCpuSec: what the SUT's own cgroup used in the window (null: it has none); speed: how fast the SUT's cpus ran in it (null: not
 *   probed)
 * @returns {PhaseResourceFigures}
 */
export function phaseResourceFigures (report, phase) {
  const { requests, generatorCores, generatorThreads = 1, sutCores = null, sutHostCores, cgroupCpuSec = null, speed = null } = phase
  const { sut, generator } = report.targets
  const sutShare = sut && sutCores && sut.durationSec > 0 ? sut.cpuSec / sut.durationSec / sutCores : null
  const bound = generator
    ? generatorBound({
      cpuSec: generator.cpuSec,
      wallSec: generator.durationSec,
      allottedCores: generatorCores,
      generatorThreads,
      sutShare
    })
    : { generatorBound: false, generatorCpuPct: null }
  const allotment = Math.min(generatorThreads, generatorCores)
  const generatorHeadroomPct = bound.generatorCpuPct === null ? null : Math.max(0, roundTo(100 - bound.generatorCpuPct / allotment, 1))
  const cost = sut
    ? cpuCost({
      requests,
      cpuSec: cgroupCpuSec ?? sut.cpuSec,
      wallSec: sut.durationSec,
      sutCores: sutCores ?? sutHostCores,
      cpuSource: cgroupCpuSec === null ? 'proc' : 'cgroup',
      speed
    })
    : null
  return {
    resources: report,
    cpuCost: cost,
    requestsPerCpuSec: requestsPerCpuSecOf(cost?.cpuUsPerRequest ?? null),
    ...bound,
    generatorHeadroomPct
  }
}

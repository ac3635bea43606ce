// @ts-check
// What a request cost the SUT in cpu: µs of its own cpu (user + system, every process and thread) per response, read where only the
// SUT's work counts. Steal is never in it (the kernel counts a thread's time only while it runs), nor other processes' cpu; requests per
// cpu-second is derived from it here and nowhere else.
import { SUT_CPU_BOUND_SHARE } from './resource-defaults.js'
import { roundTo } from '../util/numbers.js'

/** What the cpu cost never holds, as the record says it. */
export const CPU_COST_EXCLUDES = Object.freeze(['steal', 'other processes'])

/**
 * @typedef {'proc' | 'cgroup'} CpuSource where the SUT's cpu was read: its processes' /proc/<pid>/stat, or its own cgroup's cpu.stat
 *
 * @typedef {object} CpuCost what a phase's requests cost the SUT in cpu
 * @property {number | null} cpuUsPerRequest µs of the SUT's cpu per response; null: no response, or no cpu read
 * @property {number} cpuSec the SUT's cpu over the phase
 * @property {CpuSource} cpuSource
 * @property {string[]} excludes what the figure never holds: steal, other processes' cpu
 * @property {number} sutCores the cpus the SUT was given (its pinned set, or every cpu of its host)
 * @property {number | null} sutCpuSharePct cpu-seconds / wall-seconds / sutCores, in %; null without a wall time
 * @property {boolean | null} cpuBound the SUT used at least SUT_CPU_BOUND_SHARE of its cpus; null: not known
 * @property {import('./speed-probe/speed-probe.js').SpeedReading | null} [speedProbe] how fast the SUT's cpus ran over the phase (the
 *   cpu µs of the probe's fixed chunk of work); null or absent: not probed
 */

/**
 * @param {{ requests: number, cpuSec: number, wallSec: number, sutCores: number, cpuSource: CpuSource,
 *   speed?: import('./speed-probe/speed-probe.js').SpeedReading | null }} usage
 * @returns {CpuCost}
 */
export function cpuCost ({ requests, cpuSec, wallSec, sutCores, cpuSource, speed = null }) {
  const measured = Number.isFinite(requests) && requests > 0 && Number.isFinite(cpuSec) && cpuSec > 0
  const share = wallSec > 0 && sutCores > 0 && Number.isFinite(cpuSec) ? cpuSec / wallSec / sutCores : null
  return {
    cpuUsPerRequest: measured ? roundTo(cpuSec * 1e6 / requests, 3) : null,
    cpuSec: roundTo(cpuSec, 4),
    cpuSource,
    excludes: [...CPU_COST_EXCLUDES],
    sutCores,
    sutCpuSharePct: share === null ? null : roundTo(share * 100, 1),
    cpuBound: share === null ? null : share >= SUT_CPU_BOUND_SHARE,
    speedProbe: speed
  }
}

/**
 * Responses per cpu-second of the SUT, from its cpu cost per request.
 * @param {number | null} cpuUsPerRequest
 * @returns {number | null} rounded to 0.1
 */
export function requestsPerCpuSecOf (cpuUsPerRequest) {
  return cpuUsPerRequest === null || !(cpuUsPerRequest > 0) ? null : roundTo(1e6 / cpuUsPerRequest, 1)
}

/** The rule that marks a cost, in words, from the threshold above. */
export const NOT_CPU_BOUND_RULE = `the SUT used < ${Math.round(SUT_CPU_BOUND_SHARE * 100)}% of its cpus, or its scenario waits on I/O`

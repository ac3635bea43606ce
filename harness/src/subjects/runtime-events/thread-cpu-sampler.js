// @ts-check
// The cpu time of a SUT process's main thread and of all its other threads, read by the harness from /proc every window. In a Node SUT
// the other threads are V8's background workers (concurrent marking and sweeping, concurrent compilation) and libuv's pool: the work a
// collection or a compilation does beside the program, which no pause time shows, but which takes the cpu a pinned SUT has from its
// main thread. The harness reads it from outside, so the SUT pays nothing for it.
import { readProcStat, readThreadStat } from '../../platform/process/proc-reader.js'
import { clockTicksPerSec } from '../../platform/process/system-constants.js'

/**
 * @typedef {object} ThreadCpuSample the cumulative cpu time of one process's threads at one moment
 * @property {number} atMs epoch ms
 * @property {number} mainMs the main thread's user and system time since it started
 * @property {number} othersMs every other thread's, those that ended included (the process's time less its main thread's)
 */

/**
 * @param {{ pid: number, intervalMs: number }} options
 * @returns {{ samples: () => ThreadCpuSample[], stop: () => void }}
 */
export function startThreadCpuSampler ({ pid, intervalMs }) {
  const msPerTick = 1000 / clockTicksPerSec()
  /** @type {ThreadCpuSample[]} */
  const taken = []
  const sample = () => {
    const process = readProcStat(pid)
    if (!process) return
    // The main thread's own counters are its task entry; the process's are every thread's, those that ended included.
    const main = readThreadStat(pid, pid)
    if (!main) return
    const mainTicks = main.utimeTicks + main.stimeTicks
    const allTicks = process.utimeTicks + process.stimeTicks
    taken.push({ atMs: Date.now(), mainMs: mainTicks * msPerTick, othersMs: Math.max(0, allTicks - mainTicks) * msPerTick })
  }
  sample()
  const timer = setInterval(sample, intervalMs)
  timer.unref()
  return {
    samples: () => {
      sample()
      return taken.slice()
    },
    stop: () => clearInterval(timer)
  }
}

/**
 * The cpu time each thread group took between two moments, from the cumulative samples around them (linear between samples).
 * @param {ThreadCpuSample[]} samples oldest first
 * @param {number} fromMs @param {number} toMs epoch ms
 * @returns {{ mainMs: number, othersMs: number } | null} null: the samples do not cover the span
 */
export function threadCpuBetween (samples, fromMs, toMs) {
  const at = (/** @type {number} */ ms) => {
    const after = samples.findIndex((entry) => entry.atMs >= ms)
    if (after <= 0) return after === 0 && samples[0].atMs === ms ? samples[0] : null
    const [a, b] = [samples[after - 1], samples[after]]
    const share = (ms - a.atMs) / (b.atMs - a.atMs)
    return { atMs: ms, mainMs: a.mainMs + share * (b.mainMs - a.mainMs), othersMs: a.othersMs + share * (b.othersMs - a.othersMs) }
  }
  const [from, to] = [at(fromMs), at(toMs)]
  if (!from || !to) return null
  return { mainMs: to.mainMs - from.mainMs, othersMs: to.othersMs - from.othersMs }
}

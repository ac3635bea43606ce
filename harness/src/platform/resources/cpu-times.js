// @ts-check
// Reads what every cpu of the machine did, from /proc/stat: the kernel's count, in clock ticks since boot, of the time each cpu
// spent running programs, serving interrupts, idle, and (in a virtual machine) stolen by the hypervisor for another guest.
import { readFileSync } from 'node:fs'

/**
 * @typedef {object} CpuTimes one cpu's counters, in clock ticks
 * @property {number} busyTicks user + nice + system: programs, theirs and the kernel's work on their behalf
 * @property {number} irqTicks irq + softirq: interrupts, the loopback network's packets among them
 * @property {number} stealTicks time the hypervisor gave another guest while this cpu had work
 * @property {number} totalTicks every field but guest and guest_nice (already inside user and nice)
 */

/** Where the counters are; a test or a machine without it gets null from readCpuTimes. */
export const PROC_STAT = '/proc/stat'

/**
 * @param {string} [path]
 * @returns {Map<number, CpuTimes> | null} per cpu number; null when the file cannot be read (not Linux, /proc not mounted)
 */
export function readCpuTimes (path = PROC_STAT) {
  let text
  try {
    text = readFileSync(path, 'latin1')
  } catch {
    return null
  }
  /** @type {Map<number, CpuTimes>} */
  const cpus = new Map()
  for (const line of text.split('\n')) {
    // `cpu ` is the sum of all; `cpuN` one cpu.
    if (!line.startsWith('cpu') || line[3] === ' ') continue
    const [name, ...fields] = line.split(/\s+/)
    const [user, nice, system, idle, iowait, irq, softirq, steal] = fields.map(Number)
    cpus.set(Number(name.slice(3)), {
      busyTicks: user + nice + system,
      irqTicks: irq + softirq,
      stealTicks: steal || 0,
      totalTicks: user + nice + system + idle + iowait + irq + softirq + (steal || 0)
    })
  }
  return cpus.size > 0 ? cpus : null
}

/**
 * What each cpu did between two reads.
 * @param {Map<number, CpuTimes>} before @param {Map<number, CpuTimes>} after
 * @returns {Map<number, CpuTimes>}
 */
export function cpuTimesBetween (before, after) {
  /** @type {Map<number, CpuTimes>} */
  const deltas = new Map()
  for (const [cpu, end] of after) {
    const start = before.get(cpu)
    if (!start) continue
    deltas.set(cpu, {
      busyTicks: end.busyTicks - start.busyTicks,
      irqTicks: end.irqTicks - start.irqTicks,
      stealTicks: end.stealTicks - start.stealTicks,
      totalTicks: end.totalTicks - start.totalTicks
    })
  }
  return deltas
}

// @ts-check
// CPU lists as Linux writes them (`0`, `0-1`, `0,2`, `0-2,5`): in /proc/<pid>/status
// `Cpus_allowed_list`, and in `taskset -c`.
import { readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'

/**
 * @param {string} text
 * @returns {number[] | null} the cpus, sorted and distinct; null when the text is not a cpu list
 */
export function parseCpuList (text) {
  /** @type {Set<number>} */
  const cpus = new Set()
  for (const part of text.trim().split(',')) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(part.trim())
    if (!match) return null
    const first = Number(match[1])
    const last = match[2] === undefined ? first : Number(match[2])
    if (last < first || last - first > 4096) return null
    for (let cpu = first; cpu <= last; cpu++) cpus.add(cpu)
  }
  return [...cpus].sort((a, b) => a - b)
}

/**
 * @param {number[]} cpus
 * @returns {string} the shortest list: `0-2,5`
 */
export function formatCpuList (cpus) {
  const sorted = [...new Set(cpus)].sort((a, b) => a - b)
  /** @type {string[]} */
  const parts = []
  for (let i = 0; i < sorted.length; i++) {
    const first = sorted[i]
    while (i + 1 < sorted.length && sorted[i + 1] === sorted[i] + 1) i++
    parts.push(sorted[i] === first ? String(first) : `${first}-${sorted[i]}`)
  }
  return parts.join(',')
}

/**
 * The cpus a process may run on (`Cpus_allowed_list` in /proc/<pid>/status).
 * @param {number | 'self'} pid
 * @returns {number[] | null} null when it cannot be read (no such process, not Linux)
 */
export function cpusAllowed (pid) {
  try {
    const match = /^Cpus_allowed_list:\s*(.+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match ? parseCpuList(match[1]) : null
  } catch {
    return null
  }
}

/** @returns {number[]} the cpus dyno itself may run on: its affinity on Linux, else 0 … cores − 1 */
export function machineCpus () {
  return cpusAllowed('self') ?? Array.from({ length: availableParallelism() }, (_, cpu) => cpu)
}

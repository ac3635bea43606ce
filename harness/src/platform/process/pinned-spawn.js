// @ts-check
// Starting a process on given cpus: `taskset -c <cpus> <command> <args>`. taskset sets the affinity
// and execs the command, so the pid spawn returns is the command's (its group, its IPC channel), and
// every process it starts inherits the affinity.
import { formatCpuList } from '../pinning/cpu-list.js'

/**
 * @param {string} command
 * @param {string[]} args
 * @param {number[] | null} cpus null or empty: not pinned
 * @returns {{ command: string, args: string[] }} what to hand to spawn()
 */
export function pinnedSpawnArgs (command, args, cpus) {
  if (!cpus || cpus.length === 0) return { command, args }
  return { command: 'taskset', args: ['-c', formatCpuList(cpus), command, ...args] }
}

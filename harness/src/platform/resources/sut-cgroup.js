// @ts-check
// The cpu a SUT's own cgroup used, from its `cpu.stat` (cgroup v2): only where the SUT has a cgroup of its own (a container, a systemd
// scope), never the orchestrator's, whose count would hold dyno's own cpu and the generator's.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** Where the cgroup v2 hierarchy is mounted: alone, or beside v1's controllers (a hybrid machine). */
const CGROUP_ROOTS = ['/sys/fs/cgroup', '/sys/fs/cgroup/unified']

/**
 * The cgroup v2 path in a /proc/<pid>/cgroup text (its `0::` line); null on a machine with cgroup v1 alone.
 * @param {string} text
 * @returns {string | null}
 */
export function unifiedCgroupPath (text) {
  const line = text.split('\n').find((entry) => entry.startsWith('0::'))
  return line === undefined ? null : line.slice(3).trim()
}

/**
 * `usage_usec` of a `cpu.stat` text: user and system cpu of every process of the cgroup, in µs (steal is never in it).
 * @param {string} text
 * @returns {number | null}
 */
export function usageUsec (text) {
  const match = /^usage_usec (\d+)$/m.exec(text)
  return match ? Number(match[1]) : null
}

/** @param {string} path @returns {string | null} */
function readOrNull (path) {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return null
  }
}

/**
 * A reader of the cpu the SUT's own cgroup used so far, or null when it has none of its own (it shares the orchestrator's, the machine
 * has cgroup v1 alone, or its `cpu.stat` cannot be read): then its cpu is read from /proc.
 * @param {number} pid the SUT's leader
 * @returns {(() => number | null) | null} µs used so far
 */
export function sutCgroupCpu (pid) {
  const own = unifiedCgroupPath(readOrNull(`/proc/${pid}/cgroup`) ?? '')
  const ours = unifiedCgroupPath(readOrNull('/proc/self/cgroup') ?? '')
  if (own === null || ours === null || own === ours || own === '/') return null
  // The path is the kernel's, and still kept inside the hierarchy it names.
  const statFile = CGROUP_ROOTS.map((root) => ({ root, file: join(root, own, 'cpu.stat') }))
    .filter(({ root, file }) => file.startsWith(`${root}/`))
    .map(({ file }) => file)
    .find((file) => usageUsec(readOrNull(file) ?? '') !== null)
  if (statFile === undefined) return null
  return () => usageUsec(readOrNull(statFile) ?? '')
}

// @ts-check
// Samples CPU time and resident memory of a SUT's process group and of the load generator while load
// runs. It runs in the orchestrator, so a tick reads one /proc/<pid>/stat per known process; the whole
// of /proc is scanned for new members of a group only every `rescanMs`.
import { performance } from 'node:perf_hooks'
import { DEFAULT_RESOURCE_INTERVAL_MS, DEFAULT_RESCAN_MS } from './resource-defaults.js'
import { readProcStat, scanProcessGroup } from '../process/proc-reader.js'
import { clockTicksPerSec, pageSizeBytes } from '../process/system-constants.js'
import { roundTo } from '../util/numbers.js'

/**
 * @typedef {{ pgid: number, readGroup?: (() => import('../process/proc-reader.js').ProcStat[]) | null } | { pid: number } | { pids:
 *   number[] }} ResourceTarget a process group (leader and every descendant that stayed in the group, grandchildren included), one process,
 *   or a set of processes (the generator's, one per generator cpu); readGroup: the group's processes as its own host last read them, for a
 *   group on another host
 *
 * @typedef {object} ResourceSample one interval, ending at tMs
 * @property {number} tMs since the sampler started
 * @property {number} cpuUserPct user CPU over the interval, in % of one core (200 = two cores busy)
 * @property {number} cpuSystemPct
 * @property {number} rssBytes resident memory at tMs, summed over the processes (shared pages counted in each)
 * @property {number} processes how many processes were read
 *
 * @typedef {object} TargetResources
 * @property {'group' | 'process' | 'processes'} scope
 * @property {number} id the pgid, the pid, or the first of the pids
 * @property {number} durationSec from start to stop
 * @property {number} cpuUserSec user CPU used in the window, all processes and threads
 * @property {number} cpuSystemSec
 * @property {number} cpuSec cpuUserSec + cpuSystemSec
 * @property {number} cpuPctMean cpuSec / durationSec, in % of one core
 * @property {number} peakRssBytes the highest rssBytes sampled
 * @property {number} maxProcesses the most processes seen at once (0: the target was never found)
 * @property {ResourceSample[]} samples
 *
 * @typedef {object} ResourceReport
 * @property {number} intervalMs
 * @property {number} clockTicksPerSec the resolution of the CPU figures
 * @property {number} startedAtMs epoch ms
 * @property {number} stoppedAtMs epoch ms
 * @property {Record<string, TargetResources>} targets
 *
 * @typedef {object} ResourceSampler
 * @property {() => ResourceReport} stop takes a last sample and returns the report; later calls return the same report
 */

/**
 * @typedef {object} Tracked what was read of one process at the previous tick
 * @property {number} startTicks
 * @property {number} utimeTicks
 * @property {number} stimeTicks
 */

/**
 * Follows one target: which processes it has, and what they used since the previous read.
 * @param {ResourceTarget} target
 * @param {{ rescanMs: number }} options
 */
function createTracker (target, { rescanMs }) {
  const isGroup = 'pgid' in target
  const pids = 'pids' in target ? target.pids : 'pid' in target ? [target.pid] : []
  const id = isGroup ? target.pgid : pids[0]
  if ([id, ...pids].some((value) => !Number.isInteger(value) || value <= 0)) {
    throw new RangeError(`a resource target needs a positive pid or pgid (or pids), got ${JSON.stringify(target)}`)
  }
  /** @type {Map<number, Tracked>} */
  let known = new Map()
  let lastScanAt = -Infinity
  let first = true

  /** @returns {import('../process/proc-reader.js').ProcStat[]} */
  const readGroup = 'pgid' in target ? target.readGroup ?? null : null
  const readMembers = (/** @type {number} */ now) => {
    if (!isGroup) return pids.map(readProcStat).filter((stat) => stat !== null)
    if (readGroup) return readGroup()
    if (now - lastScanAt >= rescanMs) {
      lastScanAt = now
      return scanProcessGroup(id)
    }
    /** @type {import('../process/proc-reader.js').ProcStat[]} */
    const members = []
    for (const [pid, tracked] of known) {
      const stat = readProcStat(pid)
      if (stat && stat.pgid === id && stat.startTicks === tracked.startTicks) members.push(stat)
    }
    return members
  }

  return {
    scope: /** @type {'group' | 'process' | 'processes'} */ (isGroup ? 'group' : 'pids' in target ? 'processes' : 'process'),
    id,
    /**
     * @param {number} now performance.now()
     * @returns {{ userTicks: number, systemTicks: number, rssPages: number, processes: number }} CPU since the previous read
     */
    read (now) {
      /** @type {Map<number, Tracked>} */
      const next = new Map()
      let userTicks = 0
      let systemTicks = 0
      let rssPages = 0
      for (const stat of readMembers(now)) {
        if (stat.state === 'Z') continue // ended, not yet reaped: uses nothing more
        const previous = known.get(stat.pid)
        const same = previous !== undefined && previous.startTicks === stat.startTicks
        // A process first seen after the first read was born in the window: all its CPU counts.
        if (!first) {
          userTicks += stat.utimeTicks - (same ? previous.utimeTicks : 0)
          systemTicks += stat.stimeTicks - (same ? previous.stimeTicks : 0)
        }
        rssPages += stat.rssPages
        next.set(stat.pid, { startTicks: stat.startTicks, utimeTicks: stat.utimeTicks, stimeTicks: stat.stimeTicks })
      }
      known = next
      first = false
      return { userTicks, systemTicks, rssPages, processes: next.size }
    }
  }
}

/**
 * Starts sampling now. Processes that end between reads simply stop counting (the CPU they used
 * since the previous tick is lost, at most one interval's worth).
 * @param {{ intervalMs?: number, rescanMs?: number, targets: Record<string, ResourceTarget> }} options
 * @returns {ResourceSampler}
 */
export function startResourceSampler ({ intervalMs = DEFAULT_RESOURCE_INTERVAL_MS, rescanMs = DEFAULT_RESCAN_MS, targets }) {
  if (!(intervalMs >= 10)) throw new RangeError(`intervalMs must be at least 10, got ${intervalMs}`)
  const ticksPerSec = clockTicksPerSec()
  const pageBytes = pageSizeBytes()
  const startedAtMs = Date.now()
  const startedAt = performance.now()
  const entries = Object.entries(targets).map(([name, target]) =>
    targetTotals(name, createTracker(target, { rescanMs }), { startedAt, pageBytes }))
  let lastAt = startedAt

  const sample = (/** @type {boolean} */ final) => {
    const now = performance.now()
    const intervalSec = (now - lastAt) / 1000
    // A last interval much shorter than the others gives a noisy percentage: it counts in the totals only.
    const keep = !final || now - lastAt >= intervalMs / 2
    lastAt = now
    for (const entry of entries) {
      const read = entry.tracker.read(now)
      entry.userTicks += read.userTicks
      entry.systemTicks += read.systemTicks
      const rssBytes = read.rssPages * pageBytes
      entry.peakRssBytes = Math.max(entry.peakRssBytes, rssBytes)
      entry.maxProcesses = Math.max(entry.maxProcesses, read.processes)
      if (!keep || intervalSec <= 0) continue
      entry.samples.push(intervalSample(read, { tMs: Math.round(now - startedAt), intervalSec, ticksPerSec, rssBytes }))
    }
  }

  const timer = setInterval(() => {
    try {
      sample(false)
    } catch {
      // /proc itself unreadable: the report shows what was read before.
    }
  }, intervalMs)
  timer.unref() // a sampler left running must never keep the orchestrator alive

  /** @type {ResourceReport | null} */
  let report = null
  return {
    stop () {
      if (report) return report
      clearInterval(timer)
      try {
        sample(true)
      } catch {
        // as above
      }
      const durationSec = (lastAt - startedAt) / 1000
      /** @type {Record<string, TargetResources>} */
      const reported = {}
      for (const entry of entries) reported[entry.name] = targetResources(entry, { durationSec, ticksPerSec })
      report = {
        intervalMs,
        clockTicksPerSec: ticksPerSec,
        startedAtMs,
        stoppedAtMs: startedAtMs + Math.round(lastAt - startedAt),
        targets: reported
      }
      return report
    }
  }
}

/**
 * One target's figures as the sampler adds them up: its CPU ticks since the start, its peak memory and most processes from its first
 * read on, and its samples.
 * @param {string} name @param {ReturnType<typeof createTracker>} tracker its first read is the baseline
 * @param {{ startedAt: number, pageBytes: number }} options startedAt: performance.now() at the start
 */
function targetTotals (name, tracker, { startedAt, pageBytes }) {
  const baseline = tracker.read(startedAt)
  return {
    name,
    tracker,
    userTicks: 0,
    systemTicks: 0,
    peakRssBytes: baseline.rssPages * pageBytes,
    maxProcesses: baseline.processes,
    /** @type {ResourceSample[]} */
    samples: []
  }
}

/**
 * One interval of a target, its CPU in % of one core to one decimal: the figures are no more precise than a clock tick.
 * @param {{ userTicks: number, systemTicks: number, processes: number }} read what the interval used
 * @param {{ tMs: number, intervalSec: number, ticksPerSec: number, rssBytes: number }} interval
 * @returns {ResourceSample}
 */
function intervalSample ({ userTicks, systemTicks, processes }, { tMs, intervalSec, ticksPerSec, rssBytes }) {
  return {
    tMs,
    cpuUserPct: roundTo(userTicks / ticksPerSec / intervalSec * 100, 1),
    cpuSystemPct: roundTo(systemTicks / ticksPerSec / intervalSec * 100, 1),
    rssBytes,
    processes
  }
}

/**
 * What a target used over the whole window.
 * @param {ReturnType<typeof targetTotals>} entry @param {{ durationSec: number, ticksPerSec: number }} window
 * @returns {TargetResources}
 */
function targetResources (entry, { durationSec, ticksPerSec }) {
  const cpuUserSec = entry.userTicks / ticksPerSec
  const cpuSystemSec = entry.systemTicks / ticksPerSec
  return {
    scope: entry.tracker.scope,
    id: entry.tracker.id,
    durationSec: roundTo(durationSec, 3),
    cpuUserSec: roundTo(cpuUserSec, 2),
    cpuSystemSec: roundTo(cpuSystemSec, 2),
    cpuSec: roundTo(cpuUserSec + cpuSystemSec, 2),
    cpuPctMean: durationSec > 0 ? roundTo((cpuUserSec + cpuSystemSec) / durationSec * 100, 1) : 0,
    peakRssBytes: entry.peakRssBytes,
    maxProcesses: entry.maxProcesses,
    samples: entry.samples
  }
}

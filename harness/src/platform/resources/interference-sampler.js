// @ts-check
// What else the machine did on the cpus a measurement uses. Every interval it reads each cpu's counters (/proc/stat) and takes a
// census of every process (/proc/<pid>/stat): the time each one used since the previous census goes to the cpu it last ran on, and to
// its role: the SUT's process group, the load generator, dyno itself and what it started beside them (the services the SUT uses), or
// someone else. What a cpu was busy with beyond those is interference: another program (named, from the census), or processes born
// and gone between two censuses (not named, but counted by the cpu's own counters). Time the hypervisor stole is counted apart.
// Another program is named by what identifies it, never by its arguments unless asked (process-identity.js).
import { performance } from 'node:perf_hooks'
import { cpuTimesBetween, readCpuTimes } from './cpu-times.js'
import { processIdentity } from './process-identity.js'
import { listPids, readProcStat } from '../process/proc-reader.js'
import { DEFAULT_INTERFERENCE_INTERVAL_MS, INTERFERENCE_TOP_PROCESSES } from './resource-defaults.js'
import { clockTicksPerSec } from '../process/system-constants.js'
import { roundTo } from '../util/numbers.js'

/**
 * @typedef {'sut' | 'generator' | 'dyno' | 'other'} ProcessRole
 *
 * @typedef {object} InterferenceTargets who is who, and which cpus each measured role runs on
 * @property {number[] | null} sutCpus the SUT's pinned cpus on this machine; null: not pinned here (or the SUT is on another host)
 * @property {number[] | null} generatorCpus
 * @property {boolean} sutHere the SUT runs on this machine (not on a `--sut-host`)
 * @property {number | null} sutPgid
 * @property {() => number[]} generatorPids the generator's processes now
 *
 * @typedef {object} CpuSetShare what the cpus of one role did over the window, in % of those cpus
 * @property {number[]} cpus
 * @property {number} ownPct the role's own processes (the SUT's group on the SUT's cpus, the generator on its own; both on a machine
 *   that is not pinned)
 * @property {number} othersPct every other program: neither the SUT, nor the generator, nor dyno and what it started
 * @property {number} dynoPct dyno's orchestrator and the processes it started beside the SUT and the generator (Redis, PostgreSQL)
 * @property {number} irqPct interrupts (the loopback network's packets among them)
 * @property {number} stealPct stolen by the hypervisor
 * @property {number} unnamedPct the part of othersPct no census saw a process use: processes born and gone between two censuses (a
 *   build's compilers, a test runner's workers), which the cpus' counters see and no census can name
 *
 * @typedef {object} OtherProcess a process that took time from the measured cpus
 * @property {number} pid
 * @property {string} name its executable's name, never its arguments (process-identity.js)
 * @property {string | null} user its user, when not the one dyno runs as
 * @property {string} [args] its command line, masked and shortened: only with `--census-args on`
 * @property {number} cpuPct of one cpu, over the window, on the measured cpus
 * @property {number[]} cpus the measured cpus it ran on (as last seen at each census)
 * @property {Record<string, number>} pctOfCpu per cpu it ran on: the share of that cpu it took
 *
 * @typedef {object} InterferenceSample one interval
 * @property {number} tMs end of the interval, since the sampler started
 * @property {Record<string, number>} othersPct per measured role (`sut`, `generator`, or `machine`)
 * @property {number} stealPct over the measured cpus
 *
 * @typedef {object} InterferenceReport
 * @property {number} intervalMs
 * @property {number} durationSec
 * @property {Record<string, CpuSetShare>} roles `sut` and `generator` when pinned here, else `machine` (every cpu)
 * @property {OtherProcess[]} top the other processes that took the most of the measured cpus
 * @property {InterferenceSample[]} samples
 */

/**
 * @typedef {object} Seen one process at the previous census
 * @property {number} startTicks
 * @property {number} ticks utime + stime
 *
 * @typedef {object} Tally what an interval's census added up, in ticks
 * @property {Map<number, Record<ProcessRole, number>>} perCpu
 * @property {Map<number, Map<number, number>>} others per pid, its ticks per cpu
 */

/** @returns {Record<ProcessRole, number>} */
const emptyRoles = () => ({ sut: 0, generator: 0, dyno: 0, other: 0 })

/**
 * Starts reading now. Returns null when the machine has no /proc/stat to read (the caller says so once).
 * @param {InterferenceTargets} targets
 * @param {{ censusArgs: boolean, intervalMs?: number }} options censusArgs: name other processes by their arguments too
 *   (`--census-args on`)
 * @returns {{ stop: () => InterferenceReport } | null}
 */
export function startInterferenceSampler (targets, { censusArgs, intervalMs = DEFAULT_INTERFERENCE_INTERVAL_MS }) {
  const firstTimes = readCpuTimes()
  if (!firstTimes) return null
  const ticksPerSec = clockTicksPerSec()
  const roleCpus = measuredCpus(targets, [...firstTimes.keys()])
  const measured = [...new Set(Object.values(roleCpus).flat())]
  const startedAt = performance.now()
  /** @type {Map<number, Seen>} */
  let seen = new Map()
  census(targets, seen, null) // the baseline: what each process had used before the window
  let lastTimes = firstTimes
  let lastAt = startedAt
  const totals = windowTotals(censusArgs)
  /** @type {InterferenceSample[]} */
  const samples = []

  const sample = () => {
    const now = performance.now()
    const times = readCpuTimes()
    if (!times) return
    const next = new Map()
    const tally = census(targets, next, seen)
    seen = next
    const deltas = cpuTimesBetween(lastTimes, times)
    lastTimes = times
    totals.add(deltas, tally)
    const shares = roleShares(roleCpus, deltas, tally.perCpu)
    samples.push({
      tMs: Math.round(now - startedAt),
      othersPct: Object.fromEntries(Object.entries(shares).map(([role, share]) => [role, share.othersPct])),
      stealPct: stealShare(deltas, measured)
    })
    lastAt = now
  }

  const timer = setInterval(() => {
    try {
      sample()
    } catch {
      // /proc changed under the read: the next interval reads again
    }
  }, intervalMs)
  timer.unref()

  /** @type {InterferenceReport | null} */
  let report = null
  return {
    stop () {
      if (report) return report
      clearInterval(timer)
      if (performance.now() - lastAt >= 20) sample()
      const roles = roleShares(roleCpus, totals.times, totals.perCpu)
      const durationSec = (lastAt - startedAt) / 1000
      const pctOf = (/** @type {number} */ ticks) => durationSec > 0 ? roundTo(ticks / ticksPerSec / durationSec * 100, 1) : 0
      report = {
        intervalMs,
        durationSec: roundTo(durationSec, 3),
        roles,
        top: topOthers(totals, measured, pctOf),
        samples
      }
      return report
    }
  }
}

/**
 * What the intervals add up to over the window, in ticks: each cpu's own counters, each cpu's time by role, and each other
 * process's time per cpu, with what identifies it read when it is first seen.
 * @param {boolean} censusArgs name other processes by their arguments too
 */
function windowTotals (censusArgs) {
  /** @type {Map<number, import('./cpu-times.js').CpuTimes>} */
  const times = new Map()
  /** @type {Map<number, Record<ProcessRole, number>>} */
  const perCpu = new Map()
  /** @type {Map<number, Map<number, number>>} */
  const others = new Map()
  /** @type {Map<number, import('./process-identity.js').ProcessIdentity>} */
  const identities = new Map()
  return {
    times,
    perCpu,
    others,
    identities,
    /**
     * One interval's.
     * @param {Map<number, import('./cpu-times.js').CpuTimes>} deltas what each cpu's counters did @param {Tally} tally its census
     */
    add (deltas, tally) {
      for (const [cpu, delta] of deltas) {
        const total = times.get(cpu) ?? { busyTicks: 0, irqTicks: 0, stealTicks: 0, totalTicks: 0 }
        times.set(cpu, {
          busyTicks: total.busyTicks + delta.busyTicks,
          irqTicks: total.irqTicks + delta.irqTicks,
          stealTicks: total.stealTicks + delta.stealTicks,
          totalTicks: total.totalTicks + delta.totalTicks
        })
      }
      for (const [cpu, roles] of tally.perCpu) {
        const total = perCpu.get(cpu) ?? emptyRoles()
        for (const role of /** @type {ProcessRole[]} */ (Object.keys(roles))) total[role] += roles[role]
        perCpu.set(cpu, total)
      }
      for (const [pid, used] of tally.others) {
        const total = others.get(pid) ?? new Map()
        for (const [cpu, ticks] of used) total.set(cpu, (total.get(cpu) ?? 0) + ticks)
        others.set(pid, total)
        if (!identities.has(pid)) identities.set(pid, processIdentity(pid, { args: censusArgs }))
      }
    }
  }
}

/**
 * The other processes that took the most of the measured cpus over the window, most first, each with its share of each of them.
 * @param {ReturnType<typeof windowTotals>} totals @param {number[]} measured the measured cpus
 * @param {(ticks: number) => number} pctOf ticks over the window, in % of one cpu
 * @returns {OtherProcess[]}
 */
function topOthers ({ others, identities }, measured, pctOf) {
  return [...others]
    .map(([pid, used]) => {
      const onMeasured = [...used].filter(([cpu]) => measured.includes(cpu)).sort((a, b) => a[0] - b[0])
      return { pid, onMeasured, ticks: onMeasured.reduce((sum, [, ticks]) => sum + ticks, 0) }
    })
    .filter((entry) => entry.ticks > 0)
    .sort((a, b) => b.ticks - a.ticks)
    .slice(0, INTERFERENCE_TOP_PROCESSES)
    .map(({ pid, onMeasured, ticks }) => ({
      pid,
      ...identities.get(pid) ?? { name: '?', user: null },
      cpuPct: pctOf(ticks),
      cpus: onMeasured.map(([cpu]) => cpu),
      pctOfCpu: Object.fromEntries(onMeasured.map(([cpu, cpuTicks]) => [String(cpu), pctOf(cpuTicks)]))
    }))
}

/**
 * The cpus of each measured role: pinned, the SUT's and the generator's (only the generator's when the SUT is on another host);
 * not pinned, every cpu of the machine as one.
 * @param {InterferenceTargets} targets @param {number[]} allCpus @returns {Record<string, number[]>}
 */
function measuredCpus ({ sutCpus, generatorCpus, sutHere }, allCpus) {
  if (generatorCpus && (sutCpus || !sutHere)) return { ...(sutHere && sutCpus ? { sut: sutCpus } : {}), generator: generatorCpus }
  return { machine: allCpus }
}

/**
 * One census of every process: the time each used since `before` (all of it for one born since), by role and by the cpu it last ran
 * on. With `before` null it only records the baseline.
 * @param {InterferenceTargets} targets @param {Map<number, Seen>} into @param {Map<number, Seen> | null} before
 * @returns {Tally}
 */
function census (targets, into, before) {
  const generator = new Set(targets.generatorPids())
  /** @type {Tally} */
  const tally = { perCpu: new Map(), others: new Map() }
  /** @type {import('../process/proc-reader.js').ProcStat[]} */
  const stats = []
  for (const pid of listPids()) {
    const stat = readProcStat(pid)
    if (stat) stats.push(stat)
  }
  const ofDyno = descendantsOf(process.pid, stats)
  for (const stat of stats) {
    const { pid } = stat
    const ticks = stat.utimeTicks + stat.stimeTicks
    into.set(pid, { startTicks: stat.startTicks, ticks })
    if (!before) continue
    const previous = before.get(pid)
    const used = ticks - (previous && previous.startTicks === stat.startTicks ? previous.ticks : 0)
    if (used <= 0) continue
    /** @type {ProcessRole} */
    const role =
      targets.sutHere && stat.pgid === targets.sutPgid ? 'sut' : generator.has(pid) ? 'generator' : ofDyno.has(pid) ? 'dyno' : 'other'
    const roles = tally.perCpu.get(stat.processor) ?? emptyRoles()
    roles[role] += used
    tally.perCpu.set(stat.processor, roles)
    if (role === 'other') tally.others.set(pid, new Map([[stat.processor, used]]))
  }
  return tally
}

/**
 * A process and every process below it.
 * @param {number} root @param {import('../process/proc-reader.js').ProcStat[]} stats @returns {Set<number>}
 */
function descendantsOf (root, stats) {
  /** @type {Map<number, number[]>} */
  const children = new Map()
  for (const { pid, ppid } of stats) children.set(ppid, [...(children.get(ppid) ?? []), pid])
  const found = new Set([root])
  const queue = [root]
  while (queue.length > 0) {
    for (const child of children.get(/** @type {number} */ (queue.pop())) ?? []) {
      if (!found.has(child)) {
        found.add(child)
        queue.push(child)
      }
    }
  }
  return found
}

/**
 * @param {Record<string, number[]>} roleCpus
 * @param {Map<number, import('./cpu-times.js').CpuTimes>} times what each cpu did
 * @param {Map<number, Record<ProcessRole, number>>} perCpu what the census attributed to each cpu
 * @returns {Record<string, CpuSetShare>}
 */
function roleShares (roleCpus, times, perCpu) {
  /** @type {Record<string, CpuSetShare>} */
  const shares = {}
  for (const [role, cpus] of Object.entries(roleCpus)) {
    let total = 0
    let busy = 0
    let irq = 0
    let steal = 0
    let own = 0
    let dyno = 0
    let measuredRoles = 0
    let named = 0
    for (const cpu of cpus) {
      const time = times.get(cpu)
      const roles = perCpu.get(cpu) ?? emptyRoles()
      if (!time) continue
      total += time.totalTicks
      busy += time.busyTicks
      irq += time.irqTicks
      steal += time.stealTicks
      own += role === 'machine' ? roles.sut + roles.generator : roles[/** @type {ProcessRole} */ (role)]
      measuredRoles += roles.sut + roles.generator
      named += roles.other
      dyno += roles.dyno
    }
    // A process's ticks are counted at its census, a cpu's at the same moment: what is left of the cpu's busy time is someone else's.
    // The census's tick is coarser than the cpu's own, so the two may differ by a tick: never below zero.
    const pct = (/** @type {number} */ ticks) => total > 0 ? roundTo(Math.max(0, ticks) / total * 100, 1) : 0
    shares[role] = {
      cpus,
      ownPct: pct(Math.min(own, busy)),
      othersPct: pct(busy - measuredRoles - dyno),
      dynoPct: pct(Math.min(dyno, busy)),
      irqPct: pct(irq),
      stealPct: pct(steal),
      unnamedPct: pct(busy - measuredRoles - dyno - named)
    }
  }
  return shares
}

/** @param {Map<number, import('./cpu-times.js').CpuTimes>} deltas @param {number[]} cpus @returns {number} */
function stealShare (deltas, cpus) {
  let total = 0
  let steal = 0
  for (const cpu of cpus) {
    total += deltas.get(cpu)?.totalTicks ?? 0
    steal += deltas.get(cpu)?.stealTicks ?? 0
  }
  return total > 0 ? roundTo(steal / total * 100, 1) : 0
}

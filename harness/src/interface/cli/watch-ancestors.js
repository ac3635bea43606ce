// @ts-check
import { readProcStat } from '../../platform/process/proc-reader.js'

/** How many ancestors are watched: under `pnpm bench` they are `sh -c` and pnpm. */
const WATCHED_ANCESTORS = 3
/** How often they are looked at. */
const POLL_INTERVAL_MS = 500

/**
 * The processes that started dyno, nearest first, up to (not including) the session leader (the login
 * shell, whose end the terminal signals with SIGHUP) or init. On Linux each is known by pid and start time,
 * so a reused pid is not taken for the process seen before; elsewhere only the parent, by pid.
 * @returns {{ pid: number, startTicks: number | null }[]}
 */
function ancestors () {
  if (process.platform !== 'linux') return [{ pid: process.ppid, startTicks: null }]
  const found = []
  let pid = process.ppid
  while (found.length < WATCHED_ANCESTORS && pid > 1) {
    const stat = readProcStat(pid)
    if (!stat || stat.session === pid) break
    found.push({ pid, startTicks: stat.startTicks })
    pid = stat.ppid
  }
  return found
}

/** @param {{ pid: number, startTicks: number | null }} ancestor */
function gone ({ pid, startTicks }) {
  if (startTicks === null) return process.ppid !== pid
  const stat = readProcStat(pid)
  return !stat || stat.startTicks !== startTicks || stat.state === 'Z'
}

/**
 * Calls `onGone` once when a process that started dyno ends before it (pnpm killed, or pnpm leaving on
 * Ctrl-C without waiting for its script): dyno then stops as if interrupted, instead of running on orphaned.
 * @param {() => void} onGone
 * @returns {() => void} stops watching
 */
export function watchAncestors (onGone) {
  const watched = ancestors()
  const timer = setInterval(() => {
    if (!watched.some(gone)) return
    clearInterval(timer)
    onGone()
  }, POLL_INTERVAL_MS)
  timer.unref()
  return () => clearInterval(timer)
}

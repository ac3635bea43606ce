// @ts-check
// Reads what the resource sampler needs from /proc. Every reader returns null for a process that
// ended (or became unreadable) between two reads: a process tree changes under load.
import { closeSync, openSync, readdirSync, readSync } from 'node:fs'

/**
 * @typedef {object} ProcStat the fields of /proc/<pid>/stat the sampler uses
 * @property {number} pid
 * @property {string} state one letter: R, S, D, Z, …
 * @property {number} ppid field 4
 * @property {number} pgid field 5, pgrp
 * @property {number} session field 6, the session id (the pid of the session leader)
 * @property {number} utimeTicks field 14, all threads, in clock ticks
 * @property {number} stimeTicks field 15
 * @property {number} startTicks field 22, starttime: tells a reused pid from the process seen before
 * @property {number} rssPages field 24, resident pages (as field 2 of /proc/<pid>/statm); 0 for a zombie
 * @property {number} processor field 39, the cpu the process last ran on
 * @property {boolean} kernelThread field 9 (flags) has PF_KTHREAD: a thread of the kernel's own (a kworker, ksoftirqd)
 * @property {string} comm field 2, the command name the kernel keeps (15 characters at most)
 */

/** PF_KTHREAD in a process's flags (include/linux/sched.h). */
const PF_KTHREAD = 0x00200000

/** One buffer for every read: a stat line is a few hundred bytes. */
const buffer = Buffer.allocUnsafe(4096)

/**
 * open + read + close into a shared buffer: a third of what readFileSync costs (no fstat, no allocation).
 * @param {string} path
 * @returns {string | null}
 */
function readSmallFile (path) {
  let fd
  try {
    fd = openSync(path, 'r')
  } catch {
    return null
  }
  try {
    return buffer.toString('latin1', 0, readSync(fd, buffer, 0, buffer.length, 0))
  } catch {
    return null // ESRCH: the process ended between open and read
  } finally {
    closeSync(fd)
  }
}

/**
 * @param {number} pid
 * @returns {ProcStat | null}
 */
export function readProcStat (pid) {
  return parseStat(pid, readSmallFile(`/proc/${pid}/stat`))
}

/**
 * One thread of a process: /proc/<pid>/stat of the main thread's id is the whole process's, its task entry the thread's own.
 * @param {number} pid @param {number} tid
 * @returns {ProcStat | null} pid: the thread's id
 */
export function readThreadStat (pid, tid) {
  return parseStat(tid, readSmallFile(`/proc/${pid}/task/${tid}/stat`))
}

/**
 * @param {number} pid @param {string | null} text a stat line
 * @returns {ProcStat | null}
 */
function parseStat (pid, text) {
  if (text === null) return null
  // The command name (field 2) is in parentheses and may itself hold spaces and parentheses.
  const close = text.lastIndexOf(')')
  const fields = text.slice(close + 2).split(' ')
  // fields[0] is field 3 (state), so field n is fields[n - 3].
  return {
    pid,
    state: fields[0],
    ppid: Number(fields[1]),
    pgid: Number(fields[2]),
    session: Number(fields[3]),
    utimeTicks: Number(fields[11]),
    stimeTicks: Number(fields[12]),
    startTicks: Number(fields[19]),
    rssPages: Number(fields[21]),
    processor: Number(fields[36]),
    kernelThread: (Number(fields[6]) & PF_KTHREAD) !== 0,
    comm: text.slice(text.indexOf('(') + 1, close)
  }
}

/** @returns {number[]} the pids /proc lists now */
export function listPids () {
  /** @type {number[]} */
  const pids = []
  for (const entry of readdirSync('/proc')) {
    const code = entry.charCodeAt(0)
    if (code >= 48 && code <= 57) pids.push(Number(entry))
  }
  return pids
}

/**
 * The processes of a group now: one read of /proc/<pid>/stat for every process of the machine.
 * @param {number} pgid
 * @returns {ProcStat[]}
 */
export function scanProcessGroup (pgid) {
  /** @type {ProcStat[]} */
  const members = []
  for (const pid of listPids()) {
    const stat = readProcStat(pid)
    if (stat && stat.pgid === pgid) members.push(stat)
  }
  return members
}

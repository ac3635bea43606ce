// @ts-check
// The system calls a SUT makes per request, counted beside its instructions: the same request sequence (the uncounted warm-up, then
// the windows), each window counted by strace attached to every thread of the SUT's process group and detached after it.
//
// Why a pass of its own, without valgrind: measured here on node-http json (750 requests a window), strace of the SUT under
// callgrind counts 3,046 read, 2,296 write, 4,654 gettid and 4,586 rt_sigprocmask calls a window (valgrind's own: its thread lock
// is a pipe), where the same SUT alone makes 754 read and 750 writev. Valgrind's calls drown the SUT's, so the SUT runs as it runs
// under load, with the count's runtime settings. /proc/<pid>/io gives exact read and write counts too, but not sendto, sendmsg,
// recvfrom or recvmsg (socket calls outside the VFS), nor polling: strace -c -f counts every call by name.
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DynoError } from '../../../platform/errors.js'
import { startSut } from '../../../subjects/sut-process/start-sut.js'
import { findExecutable } from '../../../platform/util/find-executable.js'
import { requestSender } from './send-requests.js'
import { PERF_MAP_FLAGS } from './perf-map.js'

/** Each class of system call, and the calls in it; a call in none is `other`. */
export const SYSCALL_CLASSES = Object.freeze({
  writes: ['write', 'writev', 'pwrite64', 'pwritev', 'pwritev2', 'sendto', 'sendmsg', 'sendmmsg', 'sendfile'],
  reads: ['read', 'readv', 'pread64', 'preadv', 'preadv2', 'recvfrom', 'recvmsg', 'recvmmsg'],
  polling: ['epoll_wait', 'epoll_pwait', 'epoll_pwait2', 'poll', 'ppoll', 'select', 'pselect6']
})

/**
 * Which classes are the same for a fixed request sequence, and so compared: a response's writes and a request's reads are the
 * framework's doing. How often the event loop polls, and the rest (futex, timers, signals), follow the timing of the requests.
 */
export const DETERMINISTIC_CLASSES = /** @type {const} */ (['writes', 'reads'])

/**
 * @typedef {{ writes: number, reads: number, polling: number, other: number }} SyscallFigures
 * @typedef {{ requests: number, calls: Record<string, number> } & { perRequest: SyscallFigures }} SyscallWindow
 * @typedef {object} SyscallCount
 * @property {'strace'} tool
 * @property {string} version
 * @property {'uninstrumented pass'} method the SUT run again without valgrind, the same requests, strace -c -f on each window
 * @property {SyscallWindow[]} windows
 * @property {SyscallFigures} perRequest over every window
 * @property {readonly string[]} compared the classes a comparison gives verdicts on
 */

/** @returns {string | null} strace's path, or null */
export const findStrace = () => findExecutable('strace', ['/usr/bin', '/bin', '/usr/sbin'])

/** The line a run prints when strace is missing. */
export const STRACE_MISSING = 'system calls per request are not counted: strace is not installed (apt-get install strace)'

/**
 * @param {{ sut: import('../../../subjects/suts/resolve-subjects.js').Subject, scenario: import('@dyno/scenarios').Scenario, env:
 *   Record<string, string>, warmupRequests: number, windowRequests: number, windows: number, concurrency: number, readyTimeoutSec: number,
 *   signal?: AbortSignal, settings: import('./count-instructions.js').CountSettings, trust?: { caFile: string, serverName: string } | null
 *   }} plan trust: the run's certificate, which the requests of a scenario over TLS trust
 * @returns {Promise<SyscallCount>}
 */
export async function countSyscalls ({
  sut, scenario, env, warmupRequests, windowRequests, windows, concurrency, readyTimeoutSec, signal, settings, trust = null
}) {
  const strace = findStrace()
  if (!strace) throw new DynoError('DYNO_ERR_LOAD_GENERATOR', STRACE_MISSING)
  if (!sut.launch) throw new DynoError('DYNO_ERR_SUT_PACKAGE', `SUT ${sut.name} has no resolved launch command`)
  const node = sut.runtime.kind === 'node'
  // The perf map names code for callgrind; here its writes would be counted as the SUT's.
  const flags = node ? settings.nodeFlags.filter((flag) => !PERF_MAP_FLAGS.includes(flag)) : []
  const launch = { ...sut.launch, args: [...flags, ...sut.launch.args], eventLoopProbe: false }
  const running = await startSut({ ...sut, launch }, { readyTimeoutSec, stopGraceSec: 10, env: { ...env, ...settings.env }, signal })
  const sender = requestSender({ port: running.port, scenario, concurrency, timeoutMs: 60_000, trust })
  const outDir = mkdtempSync(join(tmpdir(), 'dyno-strace-'))
  try {
    const send = (/** @type {number} */ count) => sender.send(count)
    await send(warmupRequests)
    /** @type {SyscallWindow[]} */
    const counted = []
    for (let window = 0; window < windows && !signal?.aborted; window++) {
      const calls = await whileTraced(strace, running.pid, join(outDir, `window-${window}.txt`), () => send(windowRequests))
      counted.push({ requests: windowRequests, calls, perRequest: classify(calls, windowRequests) })
    }
    const all = counted.reduce((sum, window) => {
      for (const [name, count] of Object.entries(window.calls)) sum[name] = (sum[name] ?? 0) + count
      return sum
    }, /** @type {Record<string, number>} */ ({}))
    return {
      tool: 'strace',
      version: execFileSync(strace, ['-V'], { encoding: 'utf8' }).split('\n')[0].trim(),
      method: 'uninstrumented pass',
      windows: counted,
      perRequest: classify(all, Math.max(1, counted.length * windowRequests)),
      compared: DETERMINISTIC_CLASSES
    }
  } finally {
    sender.close()
    await running.stop(10_000)
    rmSync(outDir, { recursive: true, force: true })
  }
}

/**
 * Runs `work` with strace counting the calls of every thread of the process `pid`: attached (each thread traced, as
 * /proc/<pid>/task/<tid>/status says) before the work starts, stopped after it ends.
 * @param {string} strace @param {number} pid @param {string} outFile @param {() => Promise<unknown>} work
 * @returns {Promise<Record<string, number>>} calls by name
 */
async function whileTraced (strace, pid, outFile, work) {
  // Every process of the SUT's group (a server's workers too), each with its threads.
  const pids = processGroup(pid)
  const tracer = spawn(strace, ['-c', '-f', ...pids.flatMap((member) => ['-p', String(member)]), '-o', outFile], {
    stdio: ['ignore', 'ignore', 'pipe']
  })
  let said = ''
  tracer.stderr.on('data', (chunk) => { said += chunk })
  const exited = new Promise((resolve) => tracer.once('exit', resolve))
  try {
    await new Promise((resolve, reject) => {
      const deadline = Date.now() + 10_000
      const check = () => {
        if (tracer.exitCode !== null) {
          return reject(new DynoError('DYNO_ERR_LOAD_GENERATOR', `strace could not attach to ${pid}: ` +
          `${said.trim()}`))
        }
        if (pids.every(everyThreadTraced)) return resolve(undefined)
        if (Date.now() > deadline) {
          return reject(new DynoError('DYNO_ERR_LOAD_GENERATOR', 'strace did not attach to every thread of ' +
          `${pid} in 10 s`))
        }
        setImmediate(check)
      }
      check()
    })
    await work()
    // The last response reaches the client when its write returns in the kernel, before strace has seen the call end: stopping
    // strace then would lose that call. Wait until the SUT's main thread is back in its event loop's poll.
    await untilPolling(pid)
  } finally {
    tracer.kill('SIGINT')
    await exited
  }
  return parseSummary(existsSync(outFile) ? readFileSync(outFile, 'utf8') : '')
}

/** System call numbers of the event loop's poll (x86-64: epoll_wait, epoll_pwait, epoll_pwait2; arm64: epoll_pwait, epoll_pwait2). */
const POLL_SYSCALLS = process.arch === 'arm64' ? new Set([22, 441]) : new Set([232, 281, 441])

/**
 * Resolves once the process's main thread is blocked in its poll (/proc/<pid>/syscall), or after a second: a SUT that polls some
 * other way is stopped then.
 * @param {number} pid
 */
function untilPolling (pid) {
  const deadline = Date.now() + 1000
  return new Promise((resolve) => {
    const check = () => {
      let number = NaN
      try {
        number = Number(readFileSync(`/proc/${pid}/syscall`, 'utf8').split(' ')[0])
      } catch {}
      if (POLL_SYSCALLS.has(number) || Date.now() > deadline) return resolve(undefined)
      setImmediate(check)
    }
    check()
  })
}

/** @param {number} leader @returns {number[]} the processes of the group it leads */
function processGroup (leader) {
  const members = readdirSync('/proc').filter((name) => /^\d+$/.test(name)).filter((name) => {
    try {
      // The fields after the command's closing parenthesis: state, ppid, pgrp.
      return Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ').pop()?.split(' ')[2]) === leader
    } catch {
      return false
    }
  }).map(Number)
  return members.length > 0 ? members : [leader]
}

/** @param {number} pid @returns {boolean} whether every thread of the process has a tracer */
function everyThreadTraced (pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).every((tid) =>
      /TracerPid:\s+[1-9]/.test(readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8'))
    )
  } catch {
    return false
  }
}

/**
 * strace -c's table: `% time  seconds  usecs/call  calls  [errors]  syscall`, then a total line.
 * @param {string} text @returns {Record<string, number>}
 */
export function parseSummary (text) {
  /** @type {Record<string, number>} */
  const calls = {}
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/)
    if (fields.length < 5 || !/^[\d.]+$/.test(fields[0]) || fields[fields.length - 1] === 'total') continue
    calls[fields[fields.length - 1]] = Number(fields[3])
  }
  return calls
}

/** @param {Record<string, number>} calls @param {number} requests @returns {SyscallFigures} per request, to 3 decimals */
function classify (calls, requests) {
  const figures = { writes: 0, reads: 0, polling: 0, other: 0 }
  for (const [name, count] of Object.entries(calls)) {
    const kind = /** @type {keyof typeof SYSCALL_CLASSES | undefined} */ (Object.keys(SYSCALL_CLASSES)
      .find((key) => SYSCALL_CLASSES[/** @type {keyof typeof SYSCALL_CLASSES} */ (key)].includes(name)))
    figures[kind ?? 'other'] += count
  }
  return /** @type {SyscallFigures} */ (
    Object.fromEntries(Object.entries(figures).map(([key, value]) => [key, Math.round((value / requests) * 1000) / 1000]))
  )
}

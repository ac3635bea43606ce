// @ts-check
// One wrk process: one phase of load, in its own process group, with dyno's Lua script; it ends with
// the report line the script prints in done().
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { DynoError } from '../../../platform/errors.js'
import { pinnedSpawnArgs } from '../../../platform/process/pinned-spawn.js'
import { findExecutable } from '../../../platform/util/find-executable.js'
import { LineTail } from '../../../platform/process/line-tail.js'
import { spawnGroupLeader, stopProcessGroup } from '../../../platform/process/process-group.js'

export const WRK_SCRIPT_PATH = fileURLToPath(new URL('./wrk-report.lua', import.meta.url))
/**
 * Beyond the phase's duration: wrk's start, and done() reading the latency distribution, which costs
 * (non-empty µs buckets) × (max − min latency) steps in wrk (each latency(i) scans from the minimum):
 * well under a second for a fast SUT, tens of seconds for a wide, dense one.
 */
const PHASE_GRACE_MS = 60_000
/**
 * How long after its phase (or a stop) wrk may take to say that its threads stopped (wrk-report.lua's first line in done()). A thread
 * reads a connection for as long as each read fills its buffer and more is waiting, and looks at its stop only between such runs: an
 * answer that never ends, sent faster than wrk reads it, holds the thread past the phase for good.
 */
const LOAD_END_GRACE_MS = 10_000
const LOAD_ENDED_LINE = 'dyno-wrk: load ended\n'
/** wrk ignores SIGINT until its threads run; a stop is repeated this often until wrk has exited. */
const STOP_REPEAT_MS = 500
const REPORT_PREFIX = '{"dynoWrkReport":'

/** @returns {string | null} the wrk executable on PATH */
export function findWrk () {
  return findExecutable('wrk')
}

/**
 * The first line of `wrk -v` without the copyright, e.g. `wrk debian/4.1.0-3+b2 [epoll]`.
 * @param {string} wrkPath
 * @returns {string | null}
 */
export function wrkVersion (wrkPath) {
  // wrk prints its version, then its usage, and exits 1: only the first line matters.
  const { stdout } = spawnSync(wrkPath, ['-v'], { encoding: 'utf8', timeout: 5000 })
  const line = (stdout ?? '').split('\n')[0].replace(/\s*Copyright.*$/, '').trim()
  return line.startsWith('wrk ') ? line : null
}

/**
 * @typedef {object} WrkPhaseRun
 * @property {number | undefined} pid wrk's process (the leader of its group), for resource sampling
 * @property {() => void} stop SIGINT to wrk, which then stops its threads and still prints its report
 * @property {Promise<import('./wrk-summary.js').WrkReport | null>} done the report; null when a stop
 *   killed wrk before it could report (a SIGINT that came before wrk set up its handler)
 */

/**
 * @param {{ wrkPath: string, url: string, threads: number, connections: number, durationSec: number,
 *   timeoutSec: number, env: Record<string, string>, cpus?: number[] | null }} options env: added to the harness's own
 *   (DYNO_RUN_ID, and the DYNO_WRK_* variables of the script); cpus: pin wrk to these CPUs (taskset, which execs wrk)
 * @returns {WrkPhaseRun}
 */
export function startWrkPhase ({ wrkPath, url, threads, connections, durationSec, timeoutSec, env, cpus = null }) {
  const args = ['-t', String(threads), '-c', String(connections), '-d', `${durationSec}s`,
    '--timeout', `${timeoutSec}s`, '--latency', '-s', WRK_SCRIPT_PATH, url]
  const pinned = pinnedSpawnArgs(wrkPath, args, cpus)
  const child = spawnGroupLeader(pinned.command, pinned.args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } })
  /** @type {Buffer[]} */
  const stdout = []
  const stderr = new LineTail()
  let loadEnded = false
  child.stdout?.on('data', (chunk) => stdout.push(chunk))
  child.stderr?.on('data', (/** @type {Buffer} */ chunk) => {
    const text = chunk.toString('latin1')
    if (!text.includes(LOAD_ENDED_LINE)) return stderr.push(chunk)
    loadEnded = true
    stderr.push(Buffer.from(text.replace(LOAD_ENDED_LINE, ''), 'latin1'))
  })
  let stopRequested = false
  /** @type {NodeJS.Timeout | undefined} */
  let stopRepeater
  /** @type {(() => void) | undefined} set once `done` waits */
  let onHeldThread

  const stop = () => {
    if (stopRequested) return
    stopRequested = true
    const interrupt = () => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT') }
    interrupt()
    stopRepeater = setInterval(interrupt, STOP_REPEAT_MS)
    setTimeout(() => onHeldThread?.(), LOAD_END_GRACE_MS).unref()
  }

  const done = new Promise((resolve, reject) => {
    let settled = false
    const finish = (/** @type {Error | null} */ error, /** @type {import('./wrk-summary.js').WrkReport | null} */ report = null) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      clearTimeout(heldCheck)
      clearInterval(stopRepeater)
      stopProcessGroup(child, { graceMs: 2000, label: 'wrk' }).then(() => error ? reject(error) : resolve(report), reject)
    }
    const limitMs = durationSec * 1000 + PHASE_GRACE_MS
    const deadline = setTimeout(() => finish(new DynoError('DYNO_ERR_LOAD_GENERATOR',
      `wrk did not finish a ${durationSec} s phase within ${limitMs / 1000} s; its stderr:\n${stderr.format()}`)), limitMs)
    // A thread still loading past its phase is held by the SUT's answer, not by wrk: the cell is invalid, with no report to read.
    onHeldThread = () => {
      if (loadEnded || settled) return
      if (stopRequested) return finish(null, null)
      finish(new DynoError('DYNO_ERR_UNEXPECTED_UNDER_LOAD', `wrk was still reading ${LOAD_END_GRACE_MS / 1000} s after its ` +
        `${durationSec} s phase ended: an answer that never ends, sent faster than wrk reads it, held a thread (wrk looks at its stop ` +
        'only when a connection has nothing more to read); it was stopped without a report'))
    }
    const heldCheck = setTimeout(onHeldThread, durationSec * 1000 + LOAD_END_GRACE_MS)
    child.on('error', (error) =>
      finish(new DynoError('DYNO_ERR_LOAD_GENERATOR', `wrk could not start (${wrkPath}): ${error.message}`, { cause: error }))
    )
    // 'close', not 'exit': the report line must be read to its end.
    child.on('close', (code, signal) => {
      const output = Buffer.concat(stdout).toString('utf8')
      const line = output.split('\n').find((candidate) => candidate.startsWith(REPORT_PREFIX))
      if (line) {
        try {
          return finish(null, JSON.parse(line))
        } catch (error) {
          return finish(new DynoError('DYNO_ERR_LOAD_GENERATOR',
            `wrk's report line is not JSON (${/** @type {Error} */ (error).message}): ${line.slice(0, 300)}`))
        }
      }
      if (stopRequested && signal === 'SIGINT') return finish(null, null)
      const lastLines = output.trim().split('\n').slice(-10).map((text) => `  | ${text}`).join('\n')
      finish(new DynoError('DYNO_ERR_LOAD_GENERATOR', `wrk ended without its report (${signal ?? `exit code ${code}`}); ` +
        `its stderr:\n${stderr.format()}\nits last stdout lines:\n${lastLines || '(no output)'}`))
    })
  })
  return { pid: child.pid, stop, done }
}

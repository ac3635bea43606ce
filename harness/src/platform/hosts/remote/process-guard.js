#!/usr/bin/env node
// @ts-check
// Runs on a host, started by dyno over SSH (guarded-process.js): starts one process as the leader of its own group, passes its
// output through, reports its pid, the group's /proc figures and its end, and stops the whole group (SIGTERM, then SIGKILL) when
// the leader ends, when dyno asks (end of stdin: the SSH session closed) or when dyno's heartbeat stops. It lives exactly as long
// as the session that started it; nothing it started outlives it.
import { spawn } from 'node:child_process'
import { setTimeout as delay } from 'node:timers/promises'
import { scanProcessGroup } from '../../process/proc-reader.js'
import { clockTicksPerSec, pageSizeBytes } from '../../process/system-constants.js'
import { decodeSpec, escapeProcessLine, guardLine, HEARTBEAT_TIMEOUT_MS, PROCESS_LINE_LIMIT_CHARS } from './guard-protocol.js'

const POLL_MS = 20
const KILL_WAIT_MS = 3000

/**
 * What to start comes first on stdin, one line (it holds the process's environment, secrets included, which a command line would
 * show every user of the host); the heartbeat follows on the same stream.
 * @returns {Promise<string>}
 */
function readSpecLine () {
  return new Promise((resolve, reject) => {
    let text = ''
    const onData = (/** @type {Buffer} */ chunk) => {
      text += chunk.toString()
      const end = text.indexOf('\n')
      if (end === -1) return
      process.stdin.off('data', onData)
      process.stdin.off('end', onEnd)
      resolve(text.slice(0, end))
    }
    const onEnd = () => reject(new Error('the SSH session ended before dyno said what to start'))
    process.stdin.on('data', onData)
    process.stdin.on('end', onEnd)
  })
}

const spec = decodeSpec(await readSpecLine())
const say = (/** @type {import('./guard-protocol.js').GuardMessage} */ message) => process.stderr.write(guardLine(message))

const env = { ...process.env, ...spec.env }
for (const name of spec.unsetEnv) delete env[name]
const child = spawn(spec.command, spec.args, {
  cwd: spec.cwd,
  env,
  detached: true,
  uid: spec.uid,
  gid: spec.gid,
  stdio: [spec.stdinText === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe']
})
const pgid = /** @type {number} */ (child.pid)
if (spec.stdinText !== undefined) {
  child.stdin?.on('error', () => {})
  child.stdin?.end(spec.stdinText)
}

child.stdout?.pipe(process.stdout)
// The process's stderr, whole lines at a time, so that the guard's own lines never land inside one of its lines, each escaped so
// that none reads as the guard's.
let pending = ''
/** @param {string} line @returns {string[]} the line, in pieces of PROCESS_LINE_LIMIT_CHARS at most */
const piecesOf = (line) => Array.from({ length: Math.max(1, Math.ceil(line.length / PROCESS_LINE_LIMIT_CHARS)) },
  (_, index) => line.slice(index * PROCESS_LINE_LIMIT_CHARS, (index + 1) * PROCESS_LINE_LIMIT_CHARS))
/** @param {string} text whole lines, without the last newline */
const passLines = (text) => process.stderr.write(`${text.split('\n').flatMap(piecesOf).map(escapeProcessLine).join('\n')}\n`)
child.stderr?.setEncoding('utf8')
child.stderr?.on('data', (/** @type {string} */ chunk) => {
  pending += chunk
  const end = pending.lastIndexOf('\n')
  if (end !== -1) {
    passLines(pending.slice(0, end))
    pending = pending.slice(end + 1)
  }
  // A line that does not end is passed in pieces: neither the guard nor dyno holds more than a piece of it.
  while (pending.length >= PROCESS_LINE_LIMIT_CHARS) {
    passLines(pending.slice(0, PROCESS_LINE_LIMIT_CHARS))
    pending = pending.slice(PROCESS_LINE_LIMIT_CHARS)
  }
})

/** @param {number} timeoutMs @returns {Promise<boolean>} the group is gone */
async function groupGone (timeoutMs) {
  const deadline = Date.now() + timeoutMs
  while (scanProcessGroup(pgid).some((member) => member.state !== 'Z')) {
    if (Date.now() >= deadline) return false
    await delay(POLL_MS)
  }
  return true
}

/** @param {NodeJS.Signals} signal */
function signalGroup (signal) {
  try {
    process.kill(-pgid, signal)
  } catch {
    // ESRCH: the group is gone
  }
}

/** @type {{ code: number | null, signal: NodeJS.Signals | null } | null} */
let leaderExit = null
const leaderExited = new Promise((resolve) => child.once('exit', (code, signal) => { leaderExit = { code, signal }; resolve(undefined) }))
let stopping = false

/** Stops the whole group, reports how the leader ended, and ends the guard with the leader's status. @param {string} why */
async function stop (why) {
  if (stopping) return
  stopping = true
  clearInterval(sampler)
  clearTimeout(heartbeat)
  say({ event: 'stopping', why })
  signalGroup('SIGTERM')
  let forced = false
  if (!(await groupGone(spec.graceMs))) {
    forced = true
    signalGroup('SIGKILL')
  }
  const gone = await groupGone(KILL_WAIT_MS)
  const waiting = new AbortController()
  await Promise.race([leaderExited, delay(KILL_WAIT_MS, undefined, { signal: waiting.signal }).catch(() => {})])
  waiting.abort() // a pending timer would keep the guard, and so the session, up
  if (pending) passLines(pending)
  const exit = leaderExit ?? { code: null, signal: null }
  say({ event: 'exit', code: exit.code, signal: exit.signal, forced, survivors: gone ? 0 : scanProcessGroup(pgid).length })
  process.exitCode = exit.code ?? (exit.signal ? 128 : 1)
  process.stdin.destroy()
}

child.once('error', (error) => {
  say({ event: 'spawn-error', message: error.message })
  stopping = true
  clearInterval(sampler)
  clearTimeout(heartbeat)
  process.exitCode = 127
  process.stdin.destroy()
})
child.once('spawn', () => say({ event: 'started', pid: pgid, clockTicksPerSec: clockTicksPerSec(), pageSizeBytes: pageSizeBytes() }))
child.once('exit', () => { stop('the process ended') })

const sampler = setInterval(() => {
  if (leaderExit === null) say({ event: 'sample', members: scanProcessGroup(pgid) })
}, spec.sampleMs > 0 ? spec.sampleMs : 2 ** 30)

/** @type {NodeJS.Timeout} */
let heartbeat = setTimeout(() => {}, 0)
const expectHeartbeat = () => {
  clearTimeout(heartbeat)
  heartbeat = setTimeout(() => stop(`no heartbeat from dyno for ${HEARTBEAT_TIMEOUT_MS} ms`), HEARTBEAT_TIMEOUT_MS)
}
expectHeartbeat()
process.stdin.on('data', expectHeartbeat)
process.stdin.on('end', () => stop('the SSH session ended'))
process.stdin.on('error', () => stop('the SSH session ended'))
for (const signal of /** @type {const} */ (['SIGHUP', 'SIGTERM', 'SIGINT', 'SIGPIPE'])) {
  process.on(signal, () => stop(`the guard got ${signal}`))
}
process.stdout.on('error', () => stop('the SSH session ended'))
process.stderr.on('error', () => stop('the SSH session ended'))

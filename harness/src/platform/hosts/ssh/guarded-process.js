// @ts-check
// dyno's side of a process started on a host under the process guard (remote/process-guard.js): one SSH session per process,
// whose end is the process's end. What the guard reports (the pid, the group's /proc figures, how the process ended) is read
// out of the session's stderr; the rest of it is the process's own stderr.
import { PassThrough } from 'node:stream'
import { DynoError } from '../../errors.js'
import { clockTicksPerSec, pageSizeBytes } from '../../process/system-constants.js'
import { spawnGroupLeader, stopProcessGroup } from '../../process/process-group.js'
import { encodeSpec, HEARTBEAT_INTERVAL_MS, PROCESS_LINE_LIMIT_CHARS, readSessionLine } from '../remote/guard-protocol.js'
import { sshArgv, sshFailure, SSH_FAILED } from './ssh-command.js'

/** Beyond the process's own grace: how long the guard may take to report its end before the session is cut. */
const GUARD_END_SLACK_MS = 8000
/**
 * The guard reports the group every DEFAULT_RESOURCE_INTERVAL_MS while the process runs: silence this long means the link is gone,
 * well before SSH's keep-alives would say so (a run measured over a dead link would read as a slow SUT).
 */
const SILENCE_LIMIT_MS = 3000
const GUARD_SCRIPT = 'harness/src/platform/hosts/remote/process-guard.js'

/** @typedef {import('../remote/guard-protocol.js').GuardMessage} GuardMessage */

/**
 * @param {import('./ssh-url.js').SshTarget} target
 * @param {import('../remote/guard-protocol.js').GuardSpec} spec
 * @param {{ node: string, label: string }} options node: the host's node
 * @returns {Promise<import('../host.js').HostProcess>}
 */
export function startGuardedProcess (target, spec, { node, label }) {
  const session = spawnGroupLeader('ssh', sshArgv(target, [node, GUARD_SCRIPT]), { stdio: ['pipe', 'pipe', 'pipe'] })
  // The spec holds the process's environment (DATABASE_URL and its password): it goes over the session's stdin, never on a
  // command line (here or on the host), then the heartbeat follows.
  session.stdin?.on('error', () => {})
  session.stdin?.write(`${encodeSpec(spec)}\n`)
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  session.stdout?.pipe(stdout)
  const heartbeat = setInterval(() => session.stdin?.write('.'), HEARTBEAT_INTERVAL_MS)
  const guard = guardReports(target, label)
  const cutSession = () => stopProcessGroup(session, { graceMs: 0, label: `the SSH session of ${label}` }).catch(() => {})
  const silence = silenceWatch(
    (silentMs) => `no word from ${target.url} for ${(silentMs / 1000).toFixed(1)} s while ${label} ran there: the link to it is gone`,
    cutSession
  )
  const ownStderr = splitSessionStderr(session.stderr, stderr, (message) => {
    silence.heard()
    if (message.event === 'started') silence.arm()
    guard.take(message)
  })

  /** @type {Promise<{ code: number | null, signal: NodeJS.Signals | null, lost: boolean }>} */
  const exited = new Promise((resolve) => {
    session.once('close', (code) => {
      clearInterval(heartbeat)
      silence.clear()
      stderr.end()
      // ssh's own failure after the start (255 and no end reported): the link dropped.
      const lost = guard.ended() === null
      if (lost) {
        guard.failStart(code === SSH_FAILED
          ? sshFailure(target, ownStderr.lastLines())
          : new Error(`${label} on ${target.url} ended before it started; its last lines:\n${ownStderr.lastLines()}`))
      }
      // After what the stderr stream still holds has reached its readers.
      setImmediate(() => {
        const ended = guard.ended()
        resolve({ code: ended?.code ?? null, signal: /** @type {NodeJS.Signals | null} */ (ended?.signal ?? null), lost })
      })
    })
  })
  session.once('error', (error) =>
    guard.failStart(new DynoError('DYNO_ERR_HOST_UNREACHABLE', `cannot run ssh for ${target.url}: ${error.message}`))
  )
  let closed = false
  const hasExited = () => closed
  exited.then(() => { closed = true })

  /** @param {number} graceMs */
  const stop = (graceMs) => stopSession(session, graceMs, { exited, guard, silence, cutSession, target, label })

  /** @returns {string | null} why the process's host can no longer be reached, when it cannot */
  const lostReason = () => {
    const lostWhy = silence.lostWhy()
    if (lostWhy || !closed || guard.ended() !== null) return lostWhy
    return `the SSH session to ${target.url} ended without the guard reporting the end of ${label} (the link dropped?)`
  }

  return guard.started.then(
    (pid) => ({ pid, stdout, stderr, exited, hasExited, stop, readGroup: guard.members, lostReason }),
    async (error) => {
      await stop(0).catch(() => {})
      throw error
    }
  )
}

/**
 * What the guard reports of its process: its pid once started (or why it could not start), its group's /proc figures in this
 * machine's clock ticks and pages, and how it ended.
 * @param {import('./ssh-url.js').SshTarget} target @param {string} label the process's
 */
function guardReports (target, label) {
  /** @type {import('../../process/proc-reader.js').ProcStat[]} */
  let members = []
  let ticksScale = 1
  let pagesScale = 1
  /** @type {GuardMessage & { event: 'exit' } | null} */
  let ended = null
  /** @type {(pid: number) => void} */
  let onStarted = () => {}
  /** @type {(error: Error) => void} */
  let onFailed = () => {}
  /** @type {Promise<number>} */
  const started = new Promise((resolve, reject) => { onStarted = resolve; onFailed = reject })
  return {
    /** the process's pid on its host, once the guard has started it */
    started,
    /** @param {Error} error why it could not start (once it has, nothing) */
    failStart: (error) => onFailed(error),
    /** @returns {import('../../process/proc-reader.js').ProcStat[]} its group as last reported */
    members: () => members,
    /** @returns {GuardMessage & { event: 'exit' } | null} how it ended; null: no end reported */
    ended: () => ended,
    /** @param {GuardMessage} message */
    take (message) {
      if (message.event === 'started') {
        ticksScale = clockTicksPerSec() / message.clockTicksPerSec
        pagesScale = message.pageSizeBytes / pageSizeBytes()
        onStarted(message.pid)
      } else if (message.event === 'sample') {
        members = message.members.map((member) => ({
          ...member,
          utimeTicks: member.utimeTicks * ticksScale,
          stimeTicks: member.stimeTicks * ticksScale,
          rssPages: member.rssPages * pagesScale
        }))
      } else if (message.event === 'spawn-error') {
        onFailed(new Error(`${label} could not be started on ${target.url}: ${message.message}`))
      } else if (message.event === 'exit') {
        ended = message
      }
    }
  }
}

/**
 * Judges the link by how long the guard has been silent, once the process has started (until then ssh's own connect timeout
 * judges it): silent for SILENCE_LIMIT_MS while the process runs, the link is gone and the session is cut.
 * @param {(silentMs: number) => string} describeLoss @param {() => void} cut ends the session
 */
function silenceWatch (describeLoss, cut) {
  let lastWordAt = performance.now()
  let watching = false
  let stopping = false
  /** @type {string | null} */
  let lostWhy = null
  const watchdog = setInterval(() => {
    const silentMs = performance.now() - lastWordAt
    if (!watching || stopping || lostWhy || silentMs < SILENCE_LIMIT_MS) return
    lostWhy = describeLoss(silentMs)
    cut()
  }, SILENCE_LIMIT_MS / 6)
  return {
    /** The guard said something. */
    heard: () => { lastWordAt = performance.now() },
    /** The process started: from now on, silence is a lost link. */
    arm: () => { watching = true },
    /** The process is being stopped: silence no longer tells. */
    disarm: () => { stopping = true },
    /** The session ended. */
    clear: () => clearInterval(watchdog),
    /** @returns {string | null} why the link was judged gone, when it was */
    lostWhy: () => lostWhy
  }
}

/**
 * Splits the session's stderr into lines: the guard's messages go to `onGuardMessage`, the rest is the process's own stderr (and
 * ssh's), passed on to `stderr` as it was printed, with the last 4000 characters of it kept to say why a session failed.
 * @param {import('node:stream').Readable | null} sessionStderr @param {PassThrough} stderr the process's
 * @param {(message: GuardMessage) => void} onGuardMessage
 * @returns {{ lastLines: () => string }}
 */
function splitSessionStderr (sessionStderr, stderr, onGuardMessage) {
  let kept = ''
  let partial = ''
  sessionStderr?.setEncoding('utf8')
  sessionStderr?.on('data', (/** @type {string} */ chunk) => {
    const lines = chunk.split('\n')
    lines[0] = partial + lines[0]
    partial = lines.pop() ?? ''
    // The guard passes a process's line in pieces of PROCESS_LINE_LIMIT_CHARS: what passes two of them without a newline is text.
    if (partial.length > 2 * PROCESS_LINE_LIMIT_CHARS) {
      lines.push(partial)
      partial = ''
    }
    for (const line of lines) {
      const { message, text } = readSessionLine(line)
      if (message) onGuardMessage(message)
      else {
        kept = `${kept}${text}\n`.slice(-4000)
        stderr.write(`${text}\n`)
      }
    }
  })
  return { lastLines: () => kept }
}

/**
 * Stops the guarded process: the end of the session's stdin tells the guard to stop it, and a session whose guard has not reported
 * the end within the process's grace and GUARD_END_SLACK_MS is cut.
 * @param {import('node:child_process').ChildProcess} session @param {number} graceMs the process's
 * @param {{ exited: Promise<{ lost: boolean }>, guard: ReturnType<typeof guardReports>, silence: ReturnType<typeof silenceWatch>,
 *   cutSession: () => void, target: import('./ssh-url.js').SshTarget, label: string }} context
 * @returns {Promise<{ forced: boolean }>}
 * @throws {DynoError} DYNO_ERR_SUT_NOT_STOPPED when processes of its group still ran after SIGKILL
 */
async function stopSession (session, graceMs, { exited, guard, silence, cutSession, target, label }) {
  silence.disarm()
  session.stdin?.end()
  const cut = setTimeout(cutSession, graceMs + GUARD_END_SLACK_MS)
  const exit = await exited
  clearTimeout(cut)
  await stopProcessGroup(session, { graceMs: 1000, label: `the SSH session of ${label}` })
  const ended = guard.ended()
  if (exit.lost && ended === null) return { forced: true }
  if (ended && ended.survivors > 0) {
    throw new DynoError(
      'DYNO_ERR_SUT_NOT_STOPPED',
      `${label} on ${target.url}: ${ended.survivors} process(es) of its group still ran after SIGKILL`
    )
  }
  return { forced: Boolean(ended?.forced) }
}

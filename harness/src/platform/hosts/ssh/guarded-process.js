// @ts-check
// dyno's side of a process started on a host under the process guard (remote/process-guard.js): one SSH session per process,
// whose end is the process's end. What the guard reports (the pid, the group's /proc figures, how the process ended) is read
// out of the session's stderr; the rest of it is the process's own stderr.
import { PassThrough } from 'node:stream'
import { DynoError } from '../../errors.js'
import { clockTicksPerSec, pageSizeBytes } from '../../process/system-constants.js'
import { spawnGroupLeader, stopProcessGroup } from '../../process/process-group.js'
import { encodeSpec, GUARD_LINE_PREFIX, HEARTBEAT_INTERVAL_MS } from '../remote/guard-protocol.js'
import { sshArgv, sshFailure, SSH_FAILED } from './ssh-command.js'

/** Beyond the process's own grace: how long the guard may take to report its end before the session is cut. */
const GUARD_END_SLACK_MS = 8000
/**
 * The guard reports the group every DEFAULT_RESOURCE_INTERVAL_MS while the process runs: silence this long means the link is gone,
 * well before SSH's keep-alives would say so (a run measured over a dead link would read as a slow SUT).
 */
const SILENCE_LIMIT_MS = 3000
const GUARD_SCRIPT = 'harness/src/platform/hosts/remote/process-guard.js'

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
  /** @type {import('../../process/proc-reader.js').ProcStat[]} */
  let members = []
  let ticksScale = 1
  let pagesScale = 1
  /** @type {import('../remote/guard-protocol.js').GuardMessage & { event: 'exit' } | null} */
  let ended = null
  let sessionStderr = ''

  /** @type {(pid: number) => void} */
  let onStarted = () => {}
  /** @type {(error: Error) => void} */
  let onFailed = () => {}
  const started = new Promise((resolve, reject) => { onStarted = resolve; onFailed = reject })

  let lastWordAt = performance.now()
  // Until the guard has started the process, ssh's own connect timeout judges the link.
  let watching = false
  let stopping = false
  /** @type {string | null} */
  let lostWhy = null
  const watchdog = setInterval(() => {
    const silentMs = performance.now() - lastWordAt
    if (!watching || stopping || lostWhy || silentMs < SILENCE_LIMIT_MS) return
    lostWhy = `no word from ${target.url} for ${(silentMs / 1000).toFixed(1)} s while ${label} ran there: the link to it is gone`
    stopProcessGroup(session, { graceMs: 0, label: `the SSH session of ${label}` }).catch(() => {})
  }, SILENCE_LIMIT_MS / 6)
  /** @param {string} line */
  const onGuardLine = (line) => {
    lastWordAt = performance.now()
    const message = /** @type {import('../remote/guard-protocol.js').GuardMessage} */ (JSON.parse(line.slice(GUARD_LINE_PREFIX.length)))
    if (message.event === 'started') {
      watching = true
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
  let partial = ''
  session.stderr?.on('data', (chunk) => {
    partial += chunk.toString()
    const lines = partial.split('\n')
    partial = lines.pop() ?? ''
    for (const line of lines) {
      if (line.startsWith(GUARD_LINE_PREFIX)) onGuardLine(line)
      else {
        sessionStderr = `${sessionStderr}${line}\n`.slice(-4000)
        stderr.write(`${line}\n`)
      }
    }
  })

  /** @type {Promise<{ code: number | null, signal: NodeJS.Signals | null, lost: boolean }>} */
  const exited = new Promise((resolve) => {
    session.once('close', (code) => {
      clearInterval(heartbeat)
      clearInterval(watchdog)
      stderr.end()
      // ssh's own failure after the start (255 and no end reported): the link dropped.
      const lost = ended === null
      if (lost) {
        onFailed(code === SSH_FAILED
          ? sshFailure(target, sessionStderr)
          : new Error(`${label} on ${target.url} ended before it started; its last lines:\n${sessionStderr}`))
      }
      // After what the stderr stream still holds has reached its readers.
      setImmediate(() => resolve({ code: ended?.code ?? null, signal: /** @type {NodeJS.Signals | null} */ (ended?.signal ?? null), lost }))
    })
  })
  session.once('error', (error) =>
    onFailed(new DynoError('DYNO_ERR_HOST_UNREACHABLE', `cannot run ssh for ${target.url}: ${error.message}`))
  )
  let closed = false
  const hasExited = () => closed
  exited.then(() => { closed = true })

  /** @param {number} graceMs */
  const stop = async (graceMs) => {
    stopping = true
    session.stdin?.end()
    const cut = setTimeout(
      () => stopProcessGroup(session, { graceMs: 0, label: `the SSH session of ${label}` }).catch(() => {}),
      graceMs + GUARD_END_SLACK_MS
    )
    const exit = await exited
    clearTimeout(cut)
    await stopProcessGroup(session, { graceMs: 1000, label: `the SSH session of ${label}` })
    if (exit.lost && ended === null) return { forced: true }
    if (ended && ended.survivors > 0) {
      throw new DynoError(
        'DYNO_ERR_SUT_NOT_STOPPED',
        `${label} on ${target.url}: ${ended.survivors} process(es) of its group still ran after SIGKILL`
      )
    }
    return { forced: Boolean(ended?.forced) }
  }

  /** @returns {string | null} why the process's host can no longer be reached, when it cannot */
  const lostReason = () => {
    if (lostWhy || !closed || ended !== null) return lostWhy
    return `the SSH session to ${target.url} ended without the guard reporting the end of ${label} (the link dropped?)`
  }

  return started.then((pid) => ({ pid, stdout, stderr, exited, hasExited, stop, readGroup: () => members, lostReason }), async (error) => {
    await stop(0).catch(() => {})
    throw error
  })
}

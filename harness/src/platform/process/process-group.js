// @ts-check
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { setTimeout as delay } from 'node:timers/promises'
import { DynoError } from '../errors.js'
import { scanProcessGroup } from './proc-reader.js'
import { forgetProcessGroup, registerProcessGroup } from './group-registry.js'

/** How often the group is polled while waiting for its last member to go. */
const POLL_INTERVAL_MS = 20
/** How long to wait for the group to disappear after SIGKILL. */
const KILL_WAIT_MS = 3000

/**
 * Spawns a process as the leader of its own group (so a Ctrl-C in the terminal reaches only dyno, which then
 * stops it in order) and registers the group, so that it cannot outlive dyno.
 * @param {string} command
 * @param {string[]} args
 * @param {Omit<import('node:child_process').SpawnOptions, 'detached'>} options
 */
export function spawnGroupLeader (command, args, options) {
  const child = spawn(command, args, { ...options, detached: true })
  registerProcessGroup(child)
  return child
}

/**
 * @param {number} pgid
 * @returns {boolean} whether any process of the group is still alive. A zombie is dead: orphaned
 *   grandchildren can stay zombies until init reaps them, and signalling them is pointless.
 */
export function processGroupAlive (pgid) {
  try {
    process.kill(-pgid, 0)
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM'
  }
  if (process.platform !== 'linux') return true
  return scanProcessGroup(pgid).some((member) => member.state !== 'Z')
}

/** @param {number} pgid @param {NodeJS.Signals} signal */
function signalGroup (pgid, signal) {
  try {
    process.kill(-pgid, signal)
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'ESRCH') throw error
  }
}

/**
 * Waits, bounded, until no process of the group is left.
 * @param {number} pgid @param {number} timeoutMs
 * @returns {Promise<boolean>} true when the group is gone
 */
async function waitForGroupGone (pgid, timeoutMs) {
  const deadline = Date.now() + timeoutMs
  while (processGroupAlive(pgid)) {
    if (Date.now() >= deadline) return false
    await delay(POLL_INTERVAL_MS)
  }
  return true
}

/**
 * Stops a process started as the leader of its own group (spawned with `detached: true`):
 * SIGTERM to the whole group, SIGKILL after `graceMs`, then makes sure no process of it is left.
 * @param {import('node:child_process').ChildProcess} child
 * @param {{ graceMs: number, label: string }} options
 * @returns {Promise<{ forced: boolean }>} forced: SIGKILL was needed
 * @throws {DynoError} DYNO_ERR_SUT_NOT_STOPPED when a process survives SIGKILL
 */
export async function stopProcessGroup (child, { graceMs, label }) {
  const pgid = child.pid
  if (pgid === undefined) return { forced: false }
  const exited = child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : once(child, 'exit').then(() => undefined)
  signalGroup(pgid, 'SIGTERM')
  const graceTimer = new AbortController()
  const leaderExitedInTime = await Promise.race([
    exited.then(() => true),
    delay(graceMs, false, { signal: graceTimer.signal }).catch(() => false)
  ])
  graceTimer.abort() // a pending grace timer would keep the harness alive after its work is done
  let forced = false
  if (!leaderExitedInTime || !(await waitForGroupGone(pgid, Math.min(graceMs, 1000)))) {
    forced = true
    signalGroup(pgid, 'SIGKILL')
  }
  if (!(await waitForGroupGone(pgid, KILL_WAIT_MS))) {
    throw new DynoError('DYNO_ERR_SUT_NOT_STOPPED', `${label}: a process of group ${pgid} is still running after SIGKILL`)
  }
  forgetProcessGroup(pgid)
  await exited
  return { forced }
}

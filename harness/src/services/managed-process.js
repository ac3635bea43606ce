// @ts-check
import { DynoError } from '../errors.js'
import { LineTail } from '../util/line-tail.js'
import { spawnGroupLeader, stopProcessGroup } from '../sut-process/process-group.js'

/**
 * @typedef {object} ManagedProcess a service server dyno started and must stop
 * @property {import('node:child_process').ChildProcess} child
 * @property {LineTail} output its last lines (stdout and stderr together)
 * @property {() => boolean} alive
 * @property {() => Promise<void>} stop SIGTERM to its group, SIGKILL after a grace period
 */

/**
 * Starts a server in its own process group and waits, bounded, for the line that says it is ready.
 * @param {{ name: string, command: string, args: string[], readyPattern: RegExp, timeoutMs: number,
 *   cwd?: string, uid?: number, gid?: number, env?: Record<string, string> }} spec env: added to the harness's own
 * @returns {Promise<ManagedProcess>}
 */
export function startManagedProcess ({ name, command, args, readyPattern, timeoutMs, cwd, uid, gid, env }) {
  const child = spawnGroupLeader(command, args, { cwd, uid, gid, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  const output = new LineTail(30)
  const alive = () => child.exitCode === null && child.signalCode === null
  const stop = async () => { await stopProcessGroup(child, { graceMs: 5000, label: name }) }
  return new Promise((resolve, reject) => {
    let settled = false
    const settle = (/** @type {Error | null} */ error) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      if (!error) return resolve({ child, output, alive, stop })
      stop().finally(() => reject(error))
    }
    const onData = (/** @type {Buffer} */ chunk) => {
      output.push(chunk)
      if (readyPattern.test(output.snapshot().join('\n'))) settle(null)
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    const timer = setTimeout(() => settle(new DynoError('DYNO_ERR_SERVICE_UNAVAILABLE',
      `${name} did not report ready within ${timeoutMs / 1000} s; its last lines:\n${output.format()}`)), timeoutMs)
    child.once('error', (error) => settle(new DynoError('DYNO_ERR_SERVICE_UNAVAILABLE',
      `${name} could not be started (${command}): ${error.message}`, { cause: error })))
    child.once('exit', (code, signal) => settle(new DynoError('DYNO_ERR_SERVICE_UNAVAILABLE',
      `${name} exited while starting (${signal ?? `exit code ${code}`}); its last lines:\n${output.format()}`)))
  })
}

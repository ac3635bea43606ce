// @ts-check
import { DynoError } from '../../platform/errors.js'
import { spawnLocalGroup } from '../../platform/hosts/local/local-host.js'
import { LineTail } from '../../platform/process/line-tail.js'

/**
 * @typedef {object} ManagedProcess a service server dyno started and must stop
 * @property {LineTail} output its last lines (stdout and stderr together)
 * @property {() => boolean} alive
 * @property {() => Promise<void>} stop SIGTERM to its group, SIGKILL after a grace period
 */

/** How long a service server has to end after SIGTERM. */
const STOP_GRACE_MS = 5000

/**
 * Starts a server in its own process group on its host (this machine unless `host` says otherwise) and waits, bounded, for the line
 * that says it is ready.
 * @param {{ name: string, command: string, args: string[], readyPattern: RegExp, timeoutMs: number,
 *   cwd?: string, uid?: number, gid?: number, env?: Record<string, string>, host?: import('../../platform/hosts/host.js').Host | null,
 *   stdinText?: string }} spec env: added to the host's own; stdinText: written to its standard input (a configuration holding a secret,
 *   which a command line would show every user of the host)
 * @returns {Promise<ManagedProcess>}
 */
export async function startManagedProcess ({
  name, command, args, readyPattern, timeoutMs, cwd = process.cwd(), uid, gid, env = {}, host = null, stdinText
}) {
  /** @type {import('../../platform/hosts/host.js').HostProcess} */
  let child
  try {
    child = await (host?.spawnGroup ?? spawnLocalGroup)({
      command,
      args,
      cwd,
      env,
      label: name,
      uid,
      gid,
      ...(stdinText === undefined ? {} : { stdinText })
    })
  } catch (error) {
    throw new DynoError(
      'DYNO_ERR_SERVICE_UNAVAILABLE',
      `${name} could not be started (${command}): ${/** @type {Error} */ (error).message}`,
      { cause: error }
    )
  }
  const output = new LineTail(30)
  const alive = () => !child.hasExited()
  const stop = async () => { await child.stop(STOP_GRACE_MS) }
  return new Promise((resolve, reject) => {
    let settled = false
    const settle = (/** @type {Error | null} */ error) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      if (!error) return resolve({ output, alive, stop })
      stop().finally(() => reject(error))
    }
    const onData = (/** @type {Buffer} */ chunk) => {
      output.push(chunk)
      if (readyPattern.test(output.snapshot().join('\n'))) settle(null)
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    const timer = setTimeout(() => settle(new DynoError('DYNO_ERR_SERVICE_UNAVAILABLE',
      `${name} did not report ready within ${timeoutMs / 1000} s; its last lines:\n${output.format()}`)), timeoutMs)
    child.exited.then(({ code, signal }) => settle(new DynoError('DYNO_ERR_SERVICE_UNAVAILABLE',
      `${name} exited while starting (${signal ?? `exit code ${code}`}); its last lines:\n${output.format()}`)))
  })
}

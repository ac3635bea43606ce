// @ts-check
// One of dyno's own scripts run to its end on a host, under the host's process group handling (on a host reached over SSH, under
// the process guard: it ends with the session), its output collected.
import { join } from 'node:path'
import { REPO_ROOT } from '../paths.js'
import { outputRead } from '../process/output-read.js'

/**
 * @param {import('./host.js').Host} host
 * @param {string} script relative to the checkout's root
 * @param {string[]} args
 * @param {{ label: string, env?: Record<string, string>, signal?: AbortSignal, stdinText?: string }} options signal: stops it; stdinText:
 *   written to its standard input (what must not be on a command line, where every user of the host can read it)
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string, lost: string | null }>} lost: why its host went away, if it did
 */
export async function runNodeScript (host, script, args, { label, env = {}, signal, stdinText }) {
  const { command, args: argv } = host.launchOn(process.execPath, [join(REPO_ROOT, script), ...args])
  const child = await host.spawnGroup({
    command,
    args: argv,
    cwd: REPO_ROOT,
    env,
    label,
    ...(stdinText === undefined ? {} : { stdinText })
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => { stdout += chunk })
  child.stderr.on('data', (chunk) => { stderr += chunk })
  const stop = () => { child.stop(5000).catch(() => {}) }
  signal?.addEventListener('abort', stop, { once: true })
  try {
    const { code } = await child.exited
    await outputRead([child.stdout, child.stderr])
    await child.stop(5000).catch(() => {})
    return { code, stdout, stderr, lost: child.lostReason() }
  } finally {
    signal?.removeEventListener('abort', stop)
  }
}

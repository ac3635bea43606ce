// @ts-check
// The one way dyno talks to a host: the user's own `ssh`, in batch mode (it never prompts, so a missing key, a password or an
// unknown host key is an error, never a question), with keep-alives so that a link that drops ends the session within seconds.
// DYNO_SSH_CONFIG names an ssh_config file to use instead of the user's (`ssh -F`).
import { spawn } from 'node:child_process'
import { DynoError } from '../../errors.js'

/** What ssh exits with when it, not the remote command, failed. */
const SSH_FAILED = 255
const CONNECT_TIMEOUT_SEC = 10
/** Keep-alives every 2 s, three unanswered: a dropped link ends the session in about 6 s. */
const ALIVE_INTERVAL_SEC = 2
const ALIVE_COUNT_MAX = 3

/** @param {string} text @returns {string} one word for a POSIX shell */
export const shellQuote = (text) => /^[A-Za-z0-9_./=:@%+-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`

/**
 * The argument vector of ssh running `argv` in the host's checkout.
 * @param {import('./ssh-url.js').SshTarget} target
 * @param {string[]} argv the remote command; its first word found on the login's PATH
 * @param {{ cwd?: string | null }} [options] cwd: the directory to run in (the checkout by default; null: the login's home)
 * @returns {string[]}
 */
export function sshArgv (target, argv, { cwd = target.dir } = {}) {
  const config = process.env.DYNO_SSH_CONFIG
  const remote = `${cwd === null ? '' : `cd ${shellQuote(cwd)} && `}exec ${argv.map(shellQuote).join(' ')}`
  return [
    ...(config ? ['-F', config] : []),
    '-T',
    '-o', 'BatchMode=yes',
    '-o', `ConnectTimeout=${CONNECT_TIMEOUT_SEC}`,
    '-o', `ServerAliveInterval=${ALIVE_INTERVAL_SEC}`,
    '-o', `ServerAliveCountMax=${ALIVE_COUNT_MAX}`,
    ...(target.port ? ['-p', String(target.port)] : []),
    ...(target.user ? ['-l', target.user] : []),
    '--', target.hostname, remote
  ]
}

/**
 * ssh's own failure (exit 255) as the error a user can act on, naming the host.
 * @param {import('./ssh-url.js').SshTarget} target @param {string} stderr
 * @returns {DynoError}
 */
export function sshFailure (target, stderr) {
  const last =
    stderr.replaceAll('\r', '').trim().split('\n').filter(Boolean).slice(-3).join(' / ') || 'ssh exited with status 255 and said nothing'
  return new DynoError('DYNO_ERR_HOST_UNREACHABLE', `cannot reach ${target.url} over SSH: ${last}`)
}

/**
 * Runs one command on the host and collects what it prints.
 * @param {import('./ssh-url.js').SshTarget} target
 * @param {string[]} argv
 * @param {{ cwd?: string | null, input?: import('node:stream').Readable | null, timeoutMs?: number, onLine?: (line: string) => void }}
 *   [options] input: piped to its stdin; onLine: its output as it comes, line by line
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string }>}
 * @throws {DynoError} DYNO_ERR_HOST_UNREACHABLE when ssh itself failed or the command outlived timeoutMs
 */
export function runOverSsh (target, argv, { cwd, input = null, timeoutMs = 60_000, onLine } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn('ssh', sshArgv(target, argv, { cwd }), { stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    let partial = ''
    const lines = (/** @type {Buffer} */ chunk) => {
      if (!onLine) return
      partial += chunk.toString()
      const parts = partial.split('\n')
      partial = parts.pop() ?? ''
      for (const line of parts) onLine(line)
    }
    child.stdout?.on('data', (chunk) => { stdout += chunk; lines(chunk) })
    child.stderr?.on('data', (chunk) => { stderr += chunk; lines(chunk) })
    if (input && child.stdin) input.pipe(child.stdin)
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new DynoError('DYNO_ERR_HOST_UNREACHABLE', `${target.url}: \`${argv.join(' ')}\` did not finish within ${timeoutMs / 1000} s`))
    }, timeoutMs)
    child.once('error', (error) => {
      clearTimeout(timer)
      reject(
        new DynoError('DYNO_ERR_HOST_UNREACHABLE', `cannot run ssh for ${target.url}: ${error.message} (is OpenSSH's client installed?)`)
      )
    })
    child.once('close', (code) => {
      clearTimeout(timer)
      if (code === SSH_FAILED) return reject(sshFailure(target, stderr))
      resolve({ code, stdout, stderr })
    })
  })
}

export { SSH_FAILED }

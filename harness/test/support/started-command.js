// @ts-check
// A command started as a user would start it, from the repository root, with what it prints collected (terminal escapes taken
// out) and a way to wait, bounded, for a line to appear.
import { spawn } from 'node:child_process'
import { REPO_ROOT } from '../../src/platform/paths.js'
import { outputRead } from '../../src/platform/process/output-read.js'
import { waitingFor } from './waiting-for.js'

/**
 * Starts a command and collects what it prints (both streams, without terminal escapes).
 * @param {string} command @param {string[]} args @param {{ env?: NodeJS.ProcessEnv }} [options]
 */
export function start (command, args, { env = process.env } = {}) {
  const child = spawn(command, args, { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: { ...env, FORCE_COLOR: '0' } })
  const seen = { text: '' }
  /** @type {Set<() => void>} */
  const waiters = new Set()
  const collect = (/** @type {Buffer} */ chunk) => {
    // eslint-disable-next-line no-control-regex
    seen.text += chunk.toString().replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
    for (const wake of waiters) wake()
  }
  child.stdout.on('data', collect)
  child.stderr.on('data', collect)
  // Exited once what it printed last has been read too.
  const exited = new Promise((resolve) => child.on('exit', (code, signal) =>
    outputRead([child.stdout, child.stderr]).then(() => resolve({ code, signal }))))
  return {
    child,
    seen,
    /** @type {Promise<{ code: number | null, signal: string | null }>} */
    exited,
    /** @param {RegExp} pattern @param {number} [timeoutMs] */
    waitFor: (pattern, timeoutMs = 30_000) => waitingFor(`${pattern} in what \`${[command, ...args].join(' ').slice(0, 160)}\` prints`,
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`${pattern} not seen within ${timeoutMs} ms:\n${seen.text}`))
        }, timeoutMs)
        const check = () => {
          if (!pattern.test(seen.text)) return
          waiters.delete(check)
          clearTimeout(timer)
          resolve(undefined)
        }
        waiters.add(check)
        check()
      }))
  }
}

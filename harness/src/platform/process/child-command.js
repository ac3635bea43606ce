// @ts-check
// A child command of compare-commits (pnpm install, dyno run) with its output streamed line by line
// as progress, interruptible, and its last lines kept for the error message.
import { spawn } from 'node:child_process'
import { DEFAULTS } from '../defaults.js'

/**
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd: string, env?: NodeJS.ProcessEnv, signal?: AbortSignal, onLine?: (line: string) => void }} options
 * @returns {Promise<{ code: number | null, signal: NodeJS.Signals | null, tail: string[] }>}
 */
export function runChild (command, args, { cwd, env = process.env, signal, onLine = () => {} }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    /** @type {string[]} */
    const tail = []
    let pending = { stdout: '', stderr: '' }
    const collect = (/** @type {'stdout' | 'stderr'} */ stream) => (/** @type {Buffer} */ chunk) => {
      const lines = (pending[stream] + chunk.toString()).split('\n')
      pending = { ...pending, [stream]: lines.pop() ?? '' }
      for (const line of lines) {
        if (line.trim() === '') continue
        tail.push(line)
        if (tail.length > DEFAULTS.errorTailLines) tail.shift()
        onLine(line)
      }
    }
    child.stdout.on('data', collect('stdout'))
    child.stderr.on('data', collect('stderr'))
    // On Ctrl-C the child gets SIGINT too (same terminal); a SIGTERM to dyno alone is passed on, so the
    // child writes what it measured before it ends.
    const onAbort = () => child.kill('SIGINT')
    signal?.addEventListener('abort', onAbort, { once: true })
    child.once('error', (error) => {
      signal?.removeEventListener('abort', onAbort)
      reject(error)
    })
    child.once('close', (code, exitSignal) => {
      signal?.removeEventListener('abort', onAbort)
      resolve({ code, signal: exitSignal, tail })
    })
  })
}

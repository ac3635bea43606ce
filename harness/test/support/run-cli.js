// @ts-check
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const DYNO_BIN = fileURLToPath(new URL('../../bin/dyno.js', import.meta.url))

/**
 * Runs the dyno CLI as a user would, bounded in time.
 * @param {string[]} args
 * @param {{ timeoutMs?: number, env?: NodeJS.ProcessEnv, onStderr?: (text: string, child: import('node:child_process').ChildProcess) =>
 *   void }} [options] env: replaces the inherited environment
 * @returns {Promise<{ code: number | null, signal: string | null, stdout: string, stderr: string }>}
 */
export function runCli (args, { timeoutMs = 60_000, env = process.env, onStderr } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DYNO_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...env, FORCE_COLOR: '0' } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => { stdout += chunk })
    child.stderr.on('data', (chunk) => {
      stderr += chunk
      onStderr?.(stderr, child)
    })
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`dyno ${args.join(' ')} did not finish within ${timeoutMs} ms; stderr:\n${stderr}`))
    }, timeoutMs)
    child.on('exit', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, stdout, stderr })
    })
  })
}

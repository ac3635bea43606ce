// @ts-check
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const DYNO_BIN = fileURLToPath(new URL('../../bin/dyno.js', import.meta.url))

/**
 * Runs the dyno CLI as a user would, bounded in time.
 * @param {string[]} args
 * @param {{ timeoutMs?: number, onStderr?: (text: string, child: import('node:child_process').ChildProcess) => void }} [options]
 * @returns {Promise<{ code: number | null, signal: string | null, stdout: string, stderr: string }>}
 */
export function runCli (args, { timeoutMs = 60_000, onStderr } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DYNO_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } })
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

// @ts-check
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { outputRead } from '../../src/platform/process/output-read.js'
import { waitingFor } from './waiting-for.js'

const DYNO_BIN = fileURLToPath(new URL('../../bin/dyno.js', import.meta.url))

/**
 * Runs the dyno CLI as a user would, bounded in time.
 * @param {string[]} args
 * @param {{ timeoutMs?: number, env?: NodeJS.ProcessEnv, onStderr?: (text: string, child: import('node:child_process').ChildProcess) =>
 *   void }} [options] env: replaces the inherited environment
 * @returns {Promise<{ code: number | null, signal: string | null, stdout: string, stderr: string }>}
 */
export function runCli (args, { timeoutMs = 60_000, env = process.env, onStderr } = {}) {
  return waitingFor(`dyno ${args.join(' ')}`, (progress) => new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DYNO_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...env, FORCE_COLOR: '0' } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => { stdout += chunk })
    child.stderr.on('data', (chunk) => {
      stderr += chunk
      progress(lastLine(stderr))
      onStderr?.(stderr, child)
    })
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`dyno ${args.join(' ')} did not finish within ${timeoutMs} ms; stderr:\n${stderr}`))
    }, timeoutMs)
    // What it printed last may still be on its way when it exits.
    child.on('exit', async (code, signal) => {
      await outputRead([child.stdout, child.stderr])
      clearTimeout(timer)
      resolve({ code, signal, stdout, stderr })
    })
  }))
}

/** @param {string} text @returns {string} its last line with something on it, without terminal escapes, cut to 200 characters */
const lastLine = (text) =>
  // eslint-disable-next-line no-control-regex
  (text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').split(/[\r\n]/).findLast((line) => line.trim()) ?? '').trim().slice(0, 200)

// @ts-check
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { onTestFinished } from 'vitest'
import { getCurrentTest } from 'vitest/suite'
import { outputRead } from '../../src/platform/process/output-read.js'
import { waitingFor } from './waiting-for.js'

const DYNO_BIN = fileURLToPath(new URL('../../bin/dyno.js', import.meta.url))

/** How long dyno has after Ctrl-C to stop what it started (its SUTs, services, engines) before it is killed. */
const STOP_GRACE_MS = 8_000

/**
 * Runs the dyno CLI as a user would, bounded in time. One still running when its time is up, or when its test ends (vitest gave up
 * on it), is stopped as a user would stop it, with Ctrl-C, so that the SUTs it started go with it; and killed if it does not stop.
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
    const stop = () => stopped(child, STOP_GRACE_MS)
    const timer = setTimeout(async () => {
      await stop()
      reject(new Error(`dyno ${args.join(' ')} did not finish within ${timeoutMs} ms; stderr:\n${stderr}`))
    }, timeoutMs)
    whenTestEnds(stop)
    // What it printed last may still be on its way when it exits.
    child.on('exit', async (code, signal) => {
      await outputRead([child.stdout, child.stderr])
      clearTimeout(timer)
      resolve({ code, signal, stdout, stderr })
    })
  }))
}

/**
 * @param {import('node:child_process').ChildProcess} child @param {number} graceMs
 * @returns {Promise<void>} once it has exited: after Ctrl-C, or killed after graceMs
 */
function stopped (child, graceMs) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs)
    child.once('exit', () => {
      clearTimeout(kill)
      resolve()
    })
    child.kill('SIGINT')
  })
}

/**
 * @param {() => Promise<void>} stop called as the current test ends, however it ends. Outside a test (a suite's setup), and in a
 *   concurrent test, whose siblings run beside it and are current in turn, only its own time limit stops it.
 */
function whenTestEnds (stop) {
  const test = getCurrentTest()
  if (!test || test.concurrent) return
  onTestFinished(stop, STOP_GRACE_MS + 2_000)
}

/** @param {string} text @returns {string} its last line with something on it, without terminal escapes, cut to 200 characters */
const lastLine = (text) =>
  // eslint-disable-next-line no-control-regex
  (text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').split(/[\r\n]/).findLast((line) => line.trim()) ?? '').trim().slice(0, 200)

// @ts-check
// SUTs that need a build (a Go binary, a Python virtual environment) carry an idempotent build script.
// It runs on `pnpm install` and again here before first use: quick when up to date, and the only way a
// fresh checkout gets a runnable server without a separate step.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { DEFAULTS } from '../../platform/defaults.js'

/** How many lines of a failed build's output the reason carries. */
const BUILD_TAIL_LINES = 15

/**
 * @typedef {object} BuildOutcome
 * @property {'ready' | 'skipped' | 'failed'} state skipped: the toolchain is missing (the reason says what to install)
 * @property {string | null} reason
 * @property {string | null} frameworkVersion
 * @property {string | null} runtimeVersion
 */

/**
 * Runs the SUT's build script with the harness's Node, streaming its lines to `onLine`, then reads the
 * manifest the build wrote.
 * @param {import('./discover-suts.js').SutDescriptor} sut
 * @param {{ onLine?: (line: string) => void, signal?: AbortSignal }} [hooks]
 * @returns {Promise<BuildOutcome>}
 */
export async function buildSut (sut, { onLine = () => {}, signal } = {}) {
  const script = sut.buildScript
  if (!script) return readManifest(sut)
  /** @type {string[]} */
  const tail = []
  /** @type {{ code: number | null, timedOut: boolean }} */
  const { code, timedOut } = await new Promise((resolve) => {
    const child = spawn(process.execPath, [script], { cwd: sut.dir, stdio: ['ignore', 'pipe', 'pipe'], signal, killSignal: 'SIGKILL' })
    let timedOut = false
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL') }, DEFAULTS.buildTimeoutSec * 1000)
    let pending = ''
    const onData = (/** @type {Buffer} */ chunk) => {
      pending += chunk.toString()
      const lines = pending.split('\n')
      pending = lines.pop() ?? ''
      for (const line of lines) {
        if (line.trim() === '') continue
        tail.push(line)
        if (tail.length > BUILD_TAIL_LINES) tail.shift()
        onLine(line)
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.on('error', () => {})
    child.on('close', (exitCode) => { clearTimeout(timer); resolve({ code: exitCode, timedOut }) })
  })
  if (timedOut) return failed(`the build of ${sut.name} ran past ${DEFAULTS.buildTimeoutSec} s and was stopped`)
  if (signal?.aborted) return failed(`the build of ${sut.name} was interrupted`)
  if (code !== 0) {
    return failed(`the build of ${sut.name} (${sut.buildScript}) exited with code ${code}; its last lines:\n${tail.join('\n')}`)
  }
  return readManifest(sut)
}

/** @param {string} reason @returns {BuildOutcome} */
const failed = (reason) => ({ state: 'failed', reason, frameworkVersion: null, runtimeVersion: null })

/**
 * @param {import('./discover-suts.js').SutDescriptor} sut
 * @returns {BuildOutcome}
 */
function readManifest (sut) {
  if (!sut.buildManifest) return { state: 'ready', reason: null, frameworkVersion: sut.frameworkVersion, runtimeVersion: null }
  let manifest
  try {
    manifest = JSON.parse(readFileSync(sut.buildManifest, 'utf8'))
  } catch (error) {
    return failed(
      `the build of ${sut.name} left no readable ${sut.buildManifest} (${/** @type {Error} */ (error).message}); run \`pnpm install\``
    )
  }
  if (manifest.ok === false) {
    return {
      state: 'skipped',
      reason: String(manifest.skipReason ?? `the build of ${sut.name} reported it cannot build here`),
      frameworkVersion: null,
      runtimeVersion: null
    }
  }
  return {
    state: 'ready',
    reason: null,
    frameworkVersion: typeof manifest.frameworkVersion === 'string' ? manifest.frameworkVersion : null,
    runtimeVersion: typeof manifest.runtimeVersion === 'string' ? manifest.runtimeVersion : null
  }
}

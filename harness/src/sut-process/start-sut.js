// @ts-check
import { DynoError } from '../errors.js'
import { LineTail } from '../util/line-tail.js'
import { spawnGroupLeader, stopProcessGroup } from './process-group.js'
import { pinnedSpawnArgs } from '../pinning/pinned-spawn.js'
import { eventLoopEnv } from '../resources/event-loop-samples.js'

/**
 * @typedef {object} ReadyLine the JSON line a SUT prints once it listens
 * @property {'ready'} event
 * @property {number} port
 * @property {boolean} [uwsNative] uWebSockets.js SUTs: whether the native binary is loaded
 *
 * @typedef {object} RunningSut
 * @property {import('node:child_process').ChildProcess} child
 * @property {number} pid also the process group id
 * @property {number} port the port it announced
 * @property {ReadyLine} ready
 * @property {LineTail} stderr
 * @property {Promise<{ code: number | null, signal: NodeJS.Signals | null }>} exited
 * @property {() => boolean} hasExited
 * @property {(graceMs: number) => Promise<{ forced: boolean }>} stop
 */

/**
 * @param {string} line
 * @returns {ReadyLine | null}
 */
function parseReadyLine (line) {
  if (!line.startsWith('{')) return null
  try {
    const parsed = JSON.parse(line)
    return parsed && parsed.event === 'ready' ? parsed : null
  } catch {
    return null
  }
}

/** Variables that point a SUT at its data sources: only the harness sets them, per scenario. */
const DATA_SOURCE_VARIABLES = ['REDIS_URL', 'DATABASE_URL', 'SQLITE_PATH', 'PG_POOL_SIZE', 'WORKERS']

/** The harness's environment without the data-source variables, so a SUT opens only what its scenario needs. */
function inheritedEnv () {
  const env = { ...process.env }
  for (const name of DATA_SOURCE_VARIABLES) delete env[name]
  return env
}

/**
 * Starts a SUT in its own process group and waits for its ready line.
 * @param {import('../suts/discover-suts.js').SutDescriptor} sut
 * @param {{ readyTimeoutSec: number, stopGraceSec: number, env?: Record<string, string>, signal?: AbortSignal,
 *   cpus?: number[] | null, eventLoopFile?: string | null }} options cpus: pin with taskset; eventLoopFile: inject the event-loop preload
 * @returns {Promise<RunningSut>}
 * @throws {DynoError} DYNO_ERR_SUT_NOT_READY (timeout or a malformed ready line), DYNO_ERR_SUT_EXITED, DYNO_ERR_INTERRUPTED
 */
export async function startSut (sut, { readyTimeoutSec, stopGraceSec, env = {}, signal, cpus = null, eventLoopFile = null }) {
  if (!sut.launch) {
    throw new DynoError('DYNO_ERR_SUT_PACKAGE', `SUT ${sut.name} (${sut.runtimeKind}) has no resolved launch command: resolve it with resolveSubjects() first`)
  }
  const { command, args } = pinnedSpawnArgs(sut.launch.command, sut.launch.args, cpus)
  const base = inheritedEnv()
  const probeFile = sut.launch.eventLoopProbe ? eventLoopFile : null
  const child = spawnGroupLeader(command, args, {
    cwd: sut.dir,
    env: {
      ...base,
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      WORKERS: String(sut.workers),
      ...env,
      // The SUT's code stays untouched: the harness preloads its event-loop probe through NODE_OPTIONS.
      ...(probeFile ? eventLoopEnv({ file: probeFile, inheritedNodeOptions: env.NODE_OPTIONS ?? base.NODE_OPTIONS ?? '' }) : {})
    },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  const stderr = new LineTail()
  child.stderr?.on('data', (chunk) => stderr.push(chunk))
  const exited = new Promise((resolve) => {
    child.once('exit', (code, exitSignal) => resolve({ code, signal: exitSignal }))
  })
  const hasExited = () => child.exitCode !== null || child.signalCode !== null
  const stop = (/** @type {number} */ graceMs) => stopProcessGroup(child, { graceMs, label: `SUT ${sut.name}` })

  /** @type {ReadyLine} */
  let ready
  try {
    ready = await waitForReadyLine(child, { sut, stderr, readyTimeoutSec, signal, exited })
  } catch (error) {
    await stop(stopGraceSec * 1000)
    throw error
  }
  // Keep draining stdout, or a chatty SUT would block on a full pipe under load.
  child.stdout?.resume()
  return { child, pid: /** @type {number} */ (child.pid), port: ready.port, ready, stderr, exited, hasExited, stop }
}

/**
 * @param {import('node:child_process').ChildProcess} child
 * @param {{ sut: import('../suts/discover-suts.js').SutDescriptor, stderr: LineTail, readyTimeoutSec: number,
 *   signal?: AbortSignal, exited: Promise<{ code: number | null, signal: NodeJS.Signals | null }> }} context
 * @returns {Promise<ReadyLine>}
 */
function waitForReadyLine (child, { sut, stderr, readyTimeoutSec, signal, exited }) {
  return new Promise((resolve, reject) => {
    let buffered = ''
    const cleanup = () => {
      clearTimeout(timer)
      child.stdout?.off('data', onData)
      signal?.removeEventListener('abort', onAbort)
    }
    const fail = (/** @type {DynoError} */ error) => { cleanup(); reject(error) }
    const onData = (/** @type {Buffer} */ chunk) => {
      buffered += chunk.toString()
      let newline
      while ((newline = buffered.indexOf('\n')) !== -1) {
        const line = buffered.slice(0, newline).trim()
        buffered = buffered.slice(newline + 1)
        const ready = parseReadyLine(line)
        if (!ready) continue
        if (!Number.isInteger(ready.port) || ready.port < 1 || ready.port > 65535) {
          return fail(new DynoError('DYNO_ERR_SUT_NOT_READY', `SUT ${sut.name} announced an invalid port in its ready line: ${line}`))
        }
        cleanup()
        return resolve(ready)
      }
    }
    const onAbort = () => fail(new DynoError('DYNO_ERR_INTERRUPTED', `interrupted by ${String(signal?.reason)} while waiting for SUT ${sut.name} to be ready`))
    const timer = setTimeout(() => fail(new DynoError('DYNO_ERR_SUT_NOT_READY',
      `SUT ${sut.name} printed no ready line within ${readyTimeoutSec} s; last stderr lines:\n${stderr.format()}`,
      { details: { stderrTail: stderr.snapshot() } })), readyTimeoutSec * 1000)
    child.stdout?.on('data', onData)
    child.once('error', (error) => fail(new DynoError('DYNO_ERR_SUT_EXITED', `SUT ${sut.name} could not be started: ${error.message}`, { cause: error })))
    exited.then(({ code, signal: exitSignal }) => fail(new DynoError('DYNO_ERR_SUT_EXITED',
      `SUT ${sut.name} exited before it was ready (${describeExit(code, exitSignal)}); last stderr lines:\n${stderr.format()}`,
      { details: { stderrTail: stderr.snapshot(), exitCode: code, exitSignal } })))
    if (signal?.aborted) onAbort()
    else signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** @param {number | null} code @param {NodeJS.Signals | null} signal */
export function describeExit (code, signal) {
  return signal ? `killed by ${signal}` : `exit code ${code}`
}

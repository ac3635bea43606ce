// @ts-check
import { fileURLToPath } from 'node:url'
import { DynoError } from '../errors.js'
import { LineTail } from '../sut-process/line-tail.js'
import { spawnGroupLeader, stopProcessGroup } from '../sut-process/process-group.js'
import { pinnedSpawnArgs } from '../pinning/pinned-spawn.js'

const WORKER_PATH = fileURLToPath(new URL('./load-worker.js', import.meta.url))
/** The generator stops within a second of being told; this bounds the wait beyond the planned duration. */
const GENERATOR_GRACE_MS = 10_000

/**
 * @typedef {object} LoadOutcome
 * @property {Partial<Record<'warmup' | 'measure', import('./load-plan.js').PhaseSummary>>} phases
 */

/**
 * @typedef {object} LoadRun
 * @property {number | undefined} pid the generator process (for resource sampling)
 * @property {() => void} stop ask the generator to stop now; the phase under way still reports what it measured
 * @property {Promise<LoadOutcome>} done
 */

/**
 * Starts the load generator process (in its own process group, so a Ctrl-C reaches only the
 * orchestrator, which then stops it in order) and runs the plan.
 * @param {import('./load-plan.js').LoadPlan} plan
 * @param {{ onProgress?: (progress: { phase: string, elapsedSec: number, requestsPerSec: number }) => void, env?: Record<string, string>,
 *   onPhase?: (phase: 'warmup' | 'measure') => void, cpus?: number[] | null }} [hooks] onPhase: a phase finished; cpus: pin the generator
 * @returns {LoadRun}
 */
export function startLoad (plan, hooks = {}) {
  // spawn rather than fork, so that taskset can wrap it; the IPC channel survives taskset's exec.
  const { command, args } = pinnedSpawnArgs(process.execPath, [WORKER_PATH], hooks.cpus ?? null)
  const child = spawnGroupLeader(command, args, { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], env: { ...process.env, ...hooks.env } })
  const stderr = new LineTail(20)
  child.stderr?.on('data', (chunk) => stderr.push(chunk))
  const plannedMs = plan.phases.reduce((sum, phase) => sum + phase.durationSec * 1000, 0)

  const done = new Promise((resolve, reject) => {
    /** @type {LoadOutcome} */
    const outcome = { phases: {} }
    let settled = false
    const finish = (/** @type {Error | null} */ error) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      stopProcessGroup(child, { graceMs: 2000, label: 'load generator' })
        .then(() => error ? reject(error) : resolve(outcome), reject)
    }
    const deadline = setTimeout(() => finish(new DynoError('DYNO_ERR_LOAD_GENERATOR',
      `the load generator did not finish within ${Math.round((plannedMs + GENERATOR_GRACE_MS) / 1000)} s`)), plannedMs + GENERATOR_GRACE_MS)
    child.on('message', (/** @type {any} */ message) => {
      if (message.type === 'progress') hooks.onProgress?.(message)
      else if (message.type === 'phase') {
        outcome.phases[/** @type {'warmup' | 'measure'} */ (message.phase)] = message.summary
        hooks.onPhase?.(message.phase)
      } else if (message.type === 'done') finish(null)
      else if (message.type === 'error') finish(new DynoError('DYNO_ERR_LOAD_GENERATOR', `the load generator failed: ${message.message}`))
    })
    child.on('exit', (code, signal) => {
      // Let IPC messages still in flight arrive first; a clean exit without `done` is still an early exit.
      setImmediate(() => finish(new DynoError('DYNO_ERR_LOAD_GENERATOR',
        `the load generator exited early (${signal ?? `exit code ${code}`}); its stderr:\n${stderr.format()}`)))
    })
    child.on('error', (error) => finish(new DynoError('DYNO_ERR_LOAD_GENERATOR', `the load generator could not start: ${error.message}`, { cause: error })))
  })
  child.send({ type: 'start', plan })
  return {
    pid: child.pid,
    stop: () => { if (child.connected) child.send({ type: 'stop' }) },
    done
  }
}

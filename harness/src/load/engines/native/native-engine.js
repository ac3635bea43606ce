// @ts-check
// The native engine (engines/native, Rust): runs a load plan, closed loop or open model, with one thread per generator cpu, every
// response's status counted and body checked as the contract says, one µs sample per response, over HTTP/1.1 (in cleartext or TLS),
// HTTP/2 (h2, h2c) or WebSocket (native-protocols.js). One process for the whole plan, told what to do by native-config.js, found by
// native-binary.js; each phase comes back as a JSON line that native-report.js makes a PhaseSummary.
import { pinnedSpawnArgs } from '../../../platform/process/pinned-spawn.js'
import { LineTail } from '../../../platform/process/line-tail.js'
import { spawnGroupLeader, stopProcessGroup } from '../../../platform/process/process-group.js'
import { DynoError } from '../../../platform/errors.js'
import { findNativeEngine } from './native-binary.js'
import { engineConfig, plannedEngineMs } from './native-config.js'
import { failedPhase, nativePhaseSummary, readEngineMessages } from './native-report.js'

/** The engine stops within a tick of being told; this bounds the wait beyond the planned duration. */
const GRACE_MS = 10_000

/**
 * Starts the engine on the plan, in its own process group, pinned to `cpus` with one thread per cpu. Same
 * shape as startLoad's LoadRun: stop() ends the phase under way early (still reported) and skips the rest.
 * @param {import('../../load-plan.js').LoadPlan} plan
 * @param {import('../engine.js').EngineHooks} hooks
 * @returns {import('../engine.js').LoadRun}
 */
export function startNativeLoad (plan, hooks) {
  const engine = findNativeEngine()
  if (!engine.ok) return { pids: [], stop: () => {}, done: Promise.reject(new DynoError('DYNO_ERR_LOAD_GENERATOR', engine.reason)) }
  const config = engineConfig(plan, hooks.threads, hooks.settings)
  const { command, args } = pinnedSpawnArgs(engine.path, [], hooks.cpus ?? null)
  const child = spawnGroupLeader(command, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...hooks.env } })
  const stderr = new LineTail()
  child.stderr?.on('data', (chunk) => stderr.push(chunk))
  child.stdin?.end(JSON.stringify(config))
  const plannedMs = plannedEngineMs(plan)

  const done = new Promise((resolve, reject) => {
    /** @type {{ phases: Partial<Record<'warmup' | 'measure', import('../../load-plan.js').PhaseSummary>> }} */
    const outcome = { phases: {} }
    let settled = false
    const finish = (/** @type {Error | null} */ error) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      stopProcessGroup(child, { graceMs: 2000, label: 'native load engine' }).then(() => error ? reject(error) : resolve(outcome), reject)
    }
    const deadline = setTimeout(() => finish(new DynoError('DYNO_ERR_LOAD_GENERATOR',
      `the native engine did not finish within ${Math.round((plannedMs + GRACE_MS) / 1000)} s`)), plannedMs + GRACE_MS)
    readEngineMessages(/** @type {import('node:stream').Readable} */ (child.stdout), (message) => {
      if (message.type === 'progress') hooks.onProgress?.(message)
      else if (message.type === 'clock') hooks.onClock?.(message.phase)
      else if (message.type === 'phase') {
        outcome.phases[/** @type {'warmup' | 'measure'} */ (message.report.name)] = nativePhaseSummary(message.report, plan)
        hooks.onPhase?.(message.report.name)
      } else if (message.type === 'failed') finish(failedPhase(message))
      else if (message.type === 'done') finish(null)
    }, (line) => finish(new DynoError('DYNO_ERR_LOAD_GENERATOR', `the native engine printed what is not JSON: ${line.slice(0, 200)}`)))
    // After its output is read: an engine that ends without `done` ended early.
    child.on('close', (code, signal) => finish(new DynoError('DYNO_ERR_LOAD_GENERATOR',
      `the native engine exited early (${signal ?? `exit code ${code}`}); its stderr:\n${stderr.format()}`)))
    child.on('error', (error) =>
      finish(new DynoError('DYNO_ERR_LOAD_GENERATOR', `the native engine could not start: ${error.message}`, { cause: error }))
    )
  })
  return {
    pids: child.pid ? [child.pid] : [],
    stop: () => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM') },
    done
  }
}

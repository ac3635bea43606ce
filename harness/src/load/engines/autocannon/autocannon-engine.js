// @ts-check
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { DynoError } from '../../../platform/errors.js'
import { LineTail } from '../../../platform/process/line-tail.js'
import { spawnGroupLeader, stopProcessGroup } from '../../../platform/process/process-group.js'
import { pinnedSpawnArgs } from '../../../platform/process/pinned-spawn.js'
import { mergeCounts } from '../../phase-counts.js'
import { phaseSummary } from '../../phase-summary.js'
import { oneThreadPerCpu } from '../engine.js'
import { fromOwnShare } from '../../in-turn.js'

const WORKER_PATH = fileURLToPath(new URL('./autocannon-worker.js', import.meta.url))
/** The generator stops within a second of being told; this bounds the wait beyond the planned duration. */
const GENERATOR_GRACE_MS = 10_000

/** The version of an npm package the harness depends on (autocannon, undici), as installed. */
const installedVersion = (/** @type {string} */ name) =>
  JSON.parse(readFileSync(new URL(`../../../../node_modules/${name}/package.json`, import.meta.url), 'utf8')).version
const VERSIONS = Object.freeze({ autocannon: installedVersion('autocannon'), undici: installedVersion('undici') })

/**
 * The plans of `workers` generator processes driving one SUT together: the connections (and an open
 * model's rate) shared as evenly as they go, and drawn requests each from its own share on; every worker runs the same phases.
 * @param {import('../../load-plan.js').LoadPlan} plan @param {number} workers
 * @returns {import('../../load-plan.js').LoadPlan[]}
 */
export function workerPlans (plan, workers) {
  const count = Math.max(1, Math.min(workers, plan.connections))
  return Array.from({ length: count }, (_, index) => ({
    ...plan,
    connections: Math.floor(plan.connections / count) + (index < plan.connections % count ? 1 : 0),
    ratePerSec: plan.ratePerSec ? plan.ratePerSec / count : plan.ratePerSec,
    ...(plan.inTurn ? { inTurn: fromOwnShare(plan.inTurn, index, count) } : {})
  }))
}

/**
 * Starts the load generator, `hooks.threads` autocannon processes (each pinned to its cpu of `hooks.cpus`, in its own
 * process group, so a Ctrl-C reaches only the orchestrator, which then stops them in order), and runs the plan: a
 * closed loop, or the open-model schedule of `plan.ratePerSec` (undici, rate-phase.js). Each phase's counts of every
 * process are added up exactly (histograms merged, counts and windows summed) into one PhaseSummary.
 * @param {import('../../load-plan.js').LoadPlan} plan
 * @param {import('../engine.js').EngineHooks} hooks
 * @returns {import('../engine.js').LoadRun}
 */
export function startAutocannonLoad (plan, hooks) {
  const plans = workerPlans(plan, hooks.threads)
  const workers = plans.map((workerPlan, index) => startWorker(workerPlan, hooks.cpus ? [hooks.cpus[index]] : null, hooks.env))
  const plannedMs = plan.phases.reduce((sum, phase) => sum + phase.durationSec * 1000, 0)

  const done = new Promise((resolve, reject) => {
    /** @type {import('../engine.js').LoadOutcome} */
    const outcome = { phases: {} }
    /** @type {Map<string, import('../../phase-counts.js').PortableCounts[]>} */
    const phaseCounts = new Map()
    /** @type {Map<number, number[]>} each second's responses, per worker, until every worker has reported it */
    const progress = new Map()
    /** @type {Set<import('node:child_process').ChildProcess>} the processes that said `done` */
    const finished = new Set()
    let settled = false
    const finish = (/** @type {Error | null} */ error) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      Promise.all(workers.map(({ child }) => stopProcessGroup(child, { graceMs: 2000, label: 'load generator' })))
        .then(() => error ? reject(error) : resolve(outcome), reject)
    }
    const deadline = setTimeout(() => finish(new DynoError('DYNO_ERR_LOAD_GENERATOR',
      `the load generator did not finish within ${Math.round((plannedMs + GENERATOR_GRACE_MS) / 1000)} s`)), plannedMs + GENERATOR_GRACE_MS)
    for (const { child, stderr } of workers) {
      child.on('message', (/** @type {any} */ message) => {
        if (message.type === 'progress') {
          const seen = [...(progress.get(message.elapsedSec) ?? []), message.requestsPerSec]
          progress.set(message.elapsedSec, seen)
          if (seen.length === workers.length) {
            progress.delete(message.elapsedSec)
            hooks.onProgress?.({
              phase: message.phase,
              elapsedSec: message.elapsedSec,
              requestsPerSec: seen.reduce((sum, count) => sum + count, 0)
            })
          }
        } else if (message.type === 'phase') {
          const list = [...(phaseCounts.get(message.phase) ?? []), message.counts]
          phaseCounts.set(message.phase, list)
          if (list.length === workers.length) {
            const { counts, rate } = mergeCounts(list)
            const summary = phaseSummary(counts, plan.expectedStatus)
            outcome.phases[/** @type {'warmup' | 'measure'} */ (message.phase)] = rate
              ? { ...summary, rate: { ...rate, targetPerSec: /** @type {number} */ (plan.ratePerSec) } }
              : summary
            hooks.onPhase?.(message.phase)
          }
        } else if (message.type === 'done') {
          finished.add(child)
          if (finished.size === workers.length) finish(null)
        } else if (message.type === 'error') {
          finish(new DynoError('DYNO_ERR_LOAD_GENERATOR', `the load generator failed: ${message.message}`))
        }
      })
      child.on('exit', (code, signal) => {
        // Let IPC messages still in flight arrive first; a clean exit without `done` is still an early exit.
        setImmediate(() => {
          if (!finished.has(child)) {
            finish(new DynoError('DYNO_ERR_LOAD_GENERATOR',
              `a load generator process exited early (${signal ?? `exit code ${code}`}); its stderr:\n${stderr.format()}`))
          }
        })
      })
      child.on('error', (error) =>
        finish(new DynoError('DYNO_ERR_LOAD_GENERATOR', `the load generator could not start: ${error.message}`, { cause: error }))
      )
    }
  })
  plans.forEach((workerPlan, index) => workers[index].child.send({ type: 'start', plan: workerPlan }))
  let stopping = false
  return {
    pids: workers.map(({ child }) => child.pid).filter((pid) => pid !== undefined),
    // Once, however often asked; a worker that ended meanwhile (its channel closing: EPIPE) needs no word, so the callback takes the
    // error that would otherwise be thrown at the caller.
    stop: () => {
      if (stopping) return
      stopping = true
      for (const { child } of workers) if (child.connected) child.send({ type: 'stop' }, () => {})
    },
    done
  }
}

/**
 * @param {import('../../load-plan.js').LoadPlan} plan @param {number[] | null} cpus @param {Record<string, string> | undefined} env
 */
function startWorker (plan, cpus, env) {
  // spawn rather than fork, so that taskset can wrap it; the IPC channel survives taskset's exec.
  const { command, args } = pinnedSpawnArgs(process.execPath, [WORKER_PATH], cpus)
  const child = spawnGroupLeader(command, args, { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], env: { ...process.env, ...env } })
  const stderr = new LineTail()
  child.stderr?.on('data', (chunk) => stderr.push(chunk))
  return { child, stderr, plan }
}

/** @type {import('../engine.js').Engine} */
export const autocannonEngine = {
  name: 'autocannon',
  recordedNames: ['autocannon', 'undici-rate'],
  fastestHere: false,
  autoPreference: 1,
  protocols: ['http1'],
  maxStreams: 1,
  description: 'autocannon (Node: one process per generator cpu, closed loop, or the open-model schedule of --rate through undici)',
  availability: () => ({ ok: true, version: VERSIONS.autocannon }),
  options: [],
  settingsOf: () => ({}),
  refusal: () => null,
  threads: (connections, generatorCpus) => oneThreadPerCpu(connections, generatorCpus),
  start: startAutocannonLoad,
  startOnHosts: null,
  recordedAs: (ratePerSec) => ratePerSec
    ? { engine: 'undici-rate', engineVersion: VERSIONS.undici }
    : { engine: 'autocannon', engineVersion: VERSIONS.autocannon },
  calibrations: [{ label: 'autocannon', start: startAutocannonLoad }]
}

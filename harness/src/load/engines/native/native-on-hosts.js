// @ts-check
// Load from several hosts at once (`--load-hosts`, the native engine's `startOnHosts`): the engine on each, with its share of the
// connections and, in the open model, an equal share of the offered rate (as the engine's threads and autocannon's processes share
// theirs), every one of them starting its first phase at the same moment (a start time a few seconds ahead, the hosts' clocks
// kept by NTP). Each phase's counts are merged exactly, as the engine merges its own threads (histograms added, window by window
// too); the generator-bound guard is judged per host, from that host's engine's CPU, read where it runs.
import { DynoError } from '../../../platform/errors.js'
import { NATIVE_ENGINE_DIR } from '../../../platform/paths.js'
import { LineTail } from '../../../platform/process/line-tail.js'
import { outputRead } from '../../../platform/process/output-read.js'
import { pinnedSpawnArgs } from '../../../platform/process/pinned-spawn.js'
import { startResourceSampler } from '../../../platform/resources/resource-sampler.js'
import { certificateOnHosts } from '../../../subjects/tls/certificate-on-host.js'
import { hostPhaseFigures, phasesAcrossHosts, progressAcrossHosts } from './merge-host-reports.js'
import { findNativeEngine } from './native-binary.js'
import { engineConfig, plannedEngineMs } from './native-config.js'
import { failedPhase, readEngineMessages } from './native-report.js'

/** Time for every host's SSH session to deliver its config before the common start. */
export const START_LEAD_MS = 3000
/** Beyond the planned phases: how long the engines may take to report before the load is called failed. */
const GRACE_MS = 15_000

/**
 * The connections of the plan, as evenly as they go, one share per host.
 * @param {number} connections @param {number} hosts
 * @returns {number[]}
 */
export function connectionShares (connections, hosts) {
  return Array.from({ length: hosts }, (_, index) => Math.floor(connections / hosts) + (index < connections % hosts ? 1 : 0))
}

/**
 * One host's part of the plan: its share of the connections and, in the open model, an equal share of the offered rate (the shares
 * add up to the plan's rate, whose phases the hosts' counts merge into).
 * @template {{ connections: number, ratePerSec: number | null }} Plan
 * @param {Plan} plan @param {number[]} shares the connections of each host @param {number} index the host's
 * @returns {Plan}
 */
export function hostPart (plan, shares, index) {
  return {
    ...plan,
    connections: shares[index],
    ratePerSec: plan.ratePerSec === null ? null : plan.ratePerSec / shares.length
  }
}

/**
 * @param {import('../../load-plan.js').LoadPlan} plan
 * @param {import('../engine.js').LoadHost[]} loadHosts
 * @param {Omit<import('../engine.js').EngineHooks, 'threads' | 'cpus'>} hooks
 * @returns {import('../engine.js').LoadRun}
 */
export function startNativeOnHosts (plan, loadHosts, hooks) {
  const engine = findNativeEngine()
  if (!engine.ok) return { pids: [], stop: () => {}, done: Promise.reject(new DynoError('DYNO_ERR_LOAD_GENERATOR', engine.reason)) }
  const shares = connectionShares(plan.connections, loadHosts.length)
  if (shares.some((share) => share === 0)) {
    return {
      pids: [],
      stop: () => {},
      done: Promise.reject(
        new DynoError(
          'DYNO_ERR_INVALID_OPTION',
          `${plan.connections} connections cannot be shared by ${loadHosts.length} load hosts: ` +
            'give each at least one (`--connections` at least the number of `--load-hosts`)'
        )
      )
    }
  }
  let stopping = false
  /** @type {import('../../../platform/hosts/host.js').HostProcess[]} */
  const started = []
  /** @param {import('../../../subjects/tls/certificate-on-host.js').CertificateOnHost[] | null} trusted */
  const startAndFollow = async (trusted) => {
    const startAtUnixMs = Date.now() + START_LEAD_MS
    for (const [index, { host, cpus, pin }] of loadHosts.entries()) {
      const threads = engineThreads(cpus, shares[index])
      const onHost = host.launchOn(engine.path, [])
      const { command, args } = pinnedSpawnArgs(onHost.command, onHost.args, pin ? cpus : null)
      started.push(
        await host.spawnGroup({
          command,
          args,
          cwd: NATIVE_ENGINE_DIR,
          env: hooks.env ?? {},
          stdinText: JSON.stringify(
            engineConfig(
              {
                ...hostPart(plan, shares, index),
                ...(trusted && plan.tls ? { tls: { ...plan.tls, caFile: trusted[index].certFile } } : {})
              },
              threads,
              hooks.settings,
              { startAtUnixMs, windowHistograms: true }
            )
          ),
          label: `the native engine on ${host.name}`
        })
      )
    }
    if (stopping) for (const engine of started) engine.stop(2000).catch(() => {})
    return followEngines(plan, loadHosts, started, { shares, startAtUnixMs, hooks })
  }
  const done = (async () => {
    // Over TLS each engine trusts the run's certificate as its host has it (a copy on a host of its own), placed before the common
    // start is set, so that placing it takes nothing from the lead the hosts' sessions have.
    // A host that fails to get its copy has the others' removed before its failure is thrown.
    const caFile = plan.tls?.caFile
    const trusted = caFile ? await certificateOnHosts({ certFile: caFile }, loadHosts.map(({ host }) => host)) : null
    try {
      return await startAndFollow(trusted?.copies ?? null)
    } finally {
      await trusted?.remove()
    }
  })()
  return {
    get pids () { return [] },
    stop: () => {
      stopping = true
      for (const engine of started) if (!engine.hasExited()) engine.stop(2000).catch(() => {})
    },
    done
  }
}

/**
 * Reads every engine's lines until each has said `done`: progress summed over the hosts, and each phase merged once every host has
 * reported it.
 * @param {import('../../load-plan.js').LoadPlan} plan @param {import('../engine.js').LoadHost[]} loadHosts
 * @param {import('../../../platform/hosts/host.js').HostProcess[]} engines
 * @param {{ shares: number[], startAtUnixMs: number, hooks: Omit<import('../engine.js').EngineHooks, 'threads' | 'cpus'> }} context
 * @returns {Promise<import('../engine.js').LoadOutcome>}
 */
function followEngines (plan, loadHosts, engines, { shares, startAtUnixMs, hooks }) {
  const deadlineMs = plannedEngineMs(plan) + START_LEAD_MS + GRACE_MS
  /** @type {import('../engine.js').LoadOutcome} */
  const outcome = { phases: {} }
  const progress = progressAcrossHosts(engines.length)
  const phases = phasesAcrossHosts(plan, engines.length, outcome)
  const samplers = engines.map((engine) => hostSampler(engine, startAtUnixMs))
  let finished = 0
  return new Promise((resolve, reject) => {
    let settled = false
    const settle = (/** @type {Error | null} */ error) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      for (const sampler of samplers) sampler.stop()
      Promise.allSettled(engines.map((engine) => engine.stop(2000))).then(() => error ? reject(error) : resolve(outcome))
    }
    const deadline = setTimeout(
      () => settle(new DynoError('DYNO_ERR_LOAD_GENERATOR', `the native engines did not finish within ${Math.round(deadlineMs / 1000)} s`)),
      deadlineMs
    )
    engines.forEach((engine, index) => {
      const share = hostPlanShare(plan, loadHosts[index], shares, index)
      let said = false
      readEngineMessages(
        engine.stdout,
        (message) => {
          if (message.type === 'progress') {
            const second = progress.add(message)
            if (second) hooks.onProgress?.(second)
          } else if (message.type === 'phase') {
            const report = /** @type {import('./native-report.js').NativePhaseReport} */ (message.report)
            const figures = hostPhaseFigures(share, report, samplers[index].phaseDone())
            if (phases.add(index, report, figures)) hooks.onPhase?.(report.name)
          } else if (message.type === 'failed') {
            settle(failedPhase(message, share.name))
          } else if (message.type === 'done') {
            said = true
            finished += 1
            if (finished === engines.length) settle(null)
          }
        },
        (line) =>
          settle(
            new DynoError('DYNO_ERR_LOAD_GENERATOR', `the native engine on ${share.name} printed what is not JSON: ${line.slice(0, 200)}`)
          )
      )
      failOnEarlyExit(engine, share.name, () => said, settle)
    })
  })
}

/**
 * What one host was given of the plan, as its phases' figures report it.
 * @param {import('../../load-plan.js').LoadPlan} plan @param {import('../engine.js').LoadHost} loadHost
 * @param {number[]} shares the connections of each host @param {number} index the host's
 * @returns {import('./merge-host-reports.js').HostPlanShare}
 */
function hostPlanShare (plan, { host, cpus }, shares, index) {
  return {
    name: host.name,
    connections: shares[index],
    ratePerSec: hostPart(plan, shares, index).ratePerSec,
    threads: engineThreads(cpus, shares[index]),
    allottedCores: cpus.length
  }
}

/**
 * One thread per cpu of the host's engine, never more than its connections, at least one.
 * @param {number[]} cpus @param {number} connections its share @returns {number}
 */
function engineThreads (cpus, connections) {
  return Math.max(1, Math.min(cpus.length, connections))
}

/**
 * Fails the following when an engine exits without having said `done`: its host lost, or its exit and what it printed to stderr.
 * @param {import('../../../platform/hosts/host.js').HostProcess} engine @param {string} hostName
 * @param {() => boolean} saidDone @param {(error: Error) => void} fail
 */
function failOnEarlyExit (engine, hostName, saidDone, fail) {
  const stderr = new LineTail()
  engine.stderr.on('data', (chunk) => stderr.push(chunk))
  engine.exited.then(async ({ code, signal }) => {
    // Judged once its last lines are read: its exit can come before its `done` has been.
    await outputRead([engine.stdout, engine.stderr])
    if (saidDone()) return
    const lost = engine.lostReason()
    fail(
      new DynoError(
        lost ? 'DYNO_ERR_HOST_LOST' : 'DYNO_ERR_LOAD_GENERATOR',
        lost ?? `the native engine on ${hostName} exited early (${signal ?? `exit code ${code}`}); its stderr:\n${stderr.format()}`
      )
    )
  })
}

/**
 * The CPU of one host's engine, phase by phase, read where it runs; the first window opens at the common start.
 * @param {import('../../../platform/hosts/host.js').HostProcess} engine @param {number} startAtUnixMs
 */
function hostSampler (engine, startAtUnixMs) {
  const target = engine.readGroup ? { pgid: engine.pid, readGroup: engine.readGroup } : { pgid: engine.pid }
  /** @type {ReturnType<typeof startResourceSampler> | null} */
  let sampler = null
  let ended = false
  const open = () => { if (!ended) sampler = startResourceSampler({ targets: { generator: target } }) }
  const timer = setTimeout(open, Math.max(0, startAtUnixMs - Date.now()))
  return {
    /**
     * @returns {import('../../../platform/resources/resource-sampler.js').TargetResources | null} the phase's, and the next one's window
     *   opens
     */
    phaseDone () {
      const report = sampler?.stop() ?? null
      open()
      return report?.targets.generator ?? null
    },
    stop () {
      ended = true
      clearTimeout(timer)
      sampler?.stop()
    }
  }
}

// @ts-check
import { SCHEMA_VERSION } from '../defaults.js'
import { ENGINE_VERSIONS, wrkEngineVersion } from '../env/fingerprint.js'
import { findNativeEngine } from '../load/native-engine.js'

/**
 * @typedef {'ok' | 'invalid' | 'failed' | 'skipped'} RunStatus
 * @typedef {{ connections: number, pipelining: number, durationSec: number, warmupSec: number, windowMs: number, ratePerSec?: number | null,
 *   engine?: 'autocannon' | 'wrk' | 'native', wrkThreads?: number, measure?: 'wall-clock' | 'instructions', countWarmupRequests?: number,
 *   countWindowRequests?: number, countWindows?: number }} LoadSettings measure instructions: a count under callgrind instead of load
 *   (counts, not durations); engine: autocannon and wrk run a closed loop (the open model of autocannon's engine is undici-rate); native
 *   runs either
 * @typedef {import('../pinning/resolve-pinning.js').PinPlan} PinPlan
 *
 * @typedef {object} ResultRecord one (SUT, scenario) run, as written to `<sut>--<scenario>.json`
 * @property {number} schemaVersion
 * @property {string} runId
 * @property {string} startedAt
 * @property {string | null} finishedAt
 * @property {ReturnType<typeof import('../env/fingerprint.js').environmentFingerprint>} env
 * @property {{ name: string, label: string, package: string, framework: string, frameworkVersion: string | null, validator: string,
 *   runtime: string, runtimeKind: string, runtimeVersion: string | null, workers: number }} sut label: the name, with the runtime when a
 *   run sets runtimes side by side
 * @property {{ name: string, method: string, path: string }} scenario
 * @property {Omit<LoadSettings, 'engine'> & { engine: 'autocannon' | 'undici-rate' | 'wrk' | 'native', engineVersion: string, pinning: PinPlan }} load
 *   engine undici-rate: the open-model schedule (--rate)
 * @property {{ index: number, of: number }} repeat which of the repeats of its (SUT, scenario, connections) this run is
 * @property {RunStatus} status
 * @property {string | null} reason null when ok
 * @property {string | null} errorCode a DYNO_ERR_* code when the run failed, invalid or skipped through one
 * @property {import('../verify/verify-scenario.js').Verification} verification
 * @property {import('../load/load-plan.js').PhaseSummary | null} warmup
 * @property {import('../load/load-plan.js').PhaseSummary | null} summary
 * @property {import('../instructions/count-instructions.js').InstructionCount} [instructions] --measure instructions: the count
 * @property {GeneratorBoundMeasurement} [generatorBoundMeasurement] autocannon's figures, when it was generator-bound on
 *   this cell and the record holds the native engine's measurement of it
 * @property {ReturnType<typeof import('../run/warmup-analysis.js').analyzeWarmup> | null} warmupAnalysis when latency settled (stableAfterMs)
 *   and how much faster the steady state is than the first second
 * @property {ReturnType<typeof import('../run/under-load-check.js').queryRatio> | null} serverCheck queries the service counted per response (redis, postgres)
 * @property {{ pid: number | null, ready: object | null, exit: { code: number | null, signal: string | null } | null, forcedKill: boolean,
 *   stderrTail: string[] }} sutProcess
 */

/**
 * Which generator a run's load settings select, with its version.
 * @param {LoadSettings} load
 * @returns {{ engine: 'autocannon' | 'undici-rate' | 'wrk' | 'native', engineVersion: string, ratePerSec: number | null }}
 */
function engineOf (load) {
  if (load.engine === 'native') return { engine: 'native', engineVersion: nativeEngineVersion(), ratePerSec: load.ratePerSec ?? null }
  if (load.ratePerSec) return { engine: 'undici-rate', engineVersion: ENGINE_VERSIONS.undici, ratePerSec: load.ratePerSec }
  if (load.engine === 'wrk') return { engine: 'wrk', engineVersion: wrkEngineVersion(), ratePerSec: null }
  return { engine: 'autocannon', engineVersion: ENGINE_VERSIONS.autocannon, ratePerSec: null }
}

/**
 * A record for a run that is about to start; the run fills it in and sets its final status.
 * @param {{ runId: string, env: ResultRecord['env'], sut: import('../suts/discover-suts.js').SutDescriptor,
 *   scenario: import('@dyno/scenarios').Scenario, load: LoadSettings, repeat?: { index: number, of: number }, pinning: PinPlan }} context
 * @returns {ResultRecord}
 */
export function createResultRecord ({ runId, env, sut, scenario, load, repeat = { index: 1, of: 1 }, pinning }) {
  return {
    schemaVersion: SCHEMA_VERSION,
    runId,
    startedAt: new Date().toISOString(),
    finishedAt: null,
    env,
    sut: {
      name: sut.name,
      label: sut.label,
      package: sut.packageName,
      framework: sut.framework,
      frameworkVersion: sut.frameworkVersion,
      validator: sut.validator,
      runtime: sut.runtime.name,
      runtimeKind: sut.runtime.kind,
      runtimeVersion: sut.runtime.version,
      workers: sut.workers
    },
    scenario: { name: scenario.name, method: scenario.request.method, path: scenario.request.path },
    load: {
      ...load,
      ...engineOf(load),
      pinning
    },
    repeat,
    status: 'failed',
    reason: 'the run did not finish',
    errorCode: null,
    verification: { performed: false, passed: false, checks: [] },
    warmup: null,
    summary: null,
    warmupAnalysis: null,
    serverCheck: null,
    sutProcess: { pid: null, ready: null, exit: null, forcedKill: false, stderrTail: [] }
  }
}

/**
 * @typedef {object} GeneratorBoundMeasurement
 * @property {'autocannon'} engine
 * @property {string} engineVersion
 * @property {number} requestsPerSec
 * @property {import('../load/load-plan.js').PhaseSummary['latencyMs']} latencyMs
 * @property {number | null} generatorCpuPct
 * @property {string} reason
 */

/**
 * Sets the final status of a record (the last word wins: a later failure overrides an earlier ok).
 * @param {ResultRecord} record
 * @param {RunStatus} status
 * @param {string | null} reason
 * @param {string | null} [errorCode]
 */
export function settleRecord (record, status, reason, errorCode = null) {
  record.status = status
  record.reason = status === 'ok' ? null : reason
  record.errorCode = errorCode
  record.finishedAt = new Date().toISOString()
  return record
}

/** @returns {string} the built native engine's version, or `not built` */
function nativeEngineVersion () {
  const engine = findNativeEngine()
  return engine.ok ? engine.version : 'not built'
}

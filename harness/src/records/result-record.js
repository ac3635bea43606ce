// @ts-check
import { SCHEMA_VERSION } from '../platform/defaults.js'

/**
 * @typedef {import('./outcome.js').RunStatus} RunStatus
 * @typedef {object} LoadSettings the load of a run, the same for every cell (the connections are the cell's)
 * @property {number} pipelining
 * @property {number} streams h2, h2c: concurrent streams per connection; ws: messages in flight per connection (`--streams`); the cells of
 *   the other protocols keep one request in flight per connection, or `pipelining`
 * @property {number} durationSec
 * @property {number} warmupSec
 * @property {number} [launchWarmupSec] wall clock only: seconds of load on each route of a launch before its first cell is measured
 *   (launch-warmup.js; absent in results of earlier versions: none)
 * @property {number} windowMs
 * @property {number | null} ratePerSec null: closed loop
 * @property {import('../load/engines/engine.js').EngineName} engine
 * @property {boolean} runtimeEvents whether each SUT's runtime events were collected (`--runtime-events`)
 * @property {string} measure the name of the measure (measures/index.js): `wall-clock`, `instructions`
 * @property {number} [countWarmupRequests] instructions only
 * @property {number} [countWarmupBoundRequests] instructions only: the most requests answered before the counted windows (absent: a
 *   count from before, of a fixed warm-up)
 * @property {number} [countWindowRequests] instructions only
 * @property {number} [countWindows] instructions only
 * @property {number} [countJobs] instructions only: counts made at once
 * @property {import('../measures/capacity/capacity-settings.js').CapacitySearchSettings} [capacity] capacity only: the search's settings
 * @typedef {import('../platform/pinning/resolve-pinning.js').PinPlan} PinPlan
 *
 * @typedef {object} ResultRecord one (SUT, scenario) run, as written to `<sut>--<scenario>.json`
 * @property {number} schemaVersion
 * @property {string} runId
 * @property {string} startedAt
 * @property {string | null} finishedAt
 * @property {ReturnType<typeof import('../platform/env/fingerprint.js').environmentFingerprint>} env
 * @property {{ name: string, label: string, package: string, framework: string, frameworkVersion: string | null, validator: string,
 *   runtime: string, runtimeKind: string, runtimeVersion: string | null, workers: number,
 *   variant: import('../subjects/variants/variant-subjects.js').Variant | null }} sut label: the name (a variant's: `express@4.21.2`), with
 *   the runtime when a run sets runtimes side by side
 * @property {{ name: string, method: string, path: string, mix?: { weight: number, method: string, path: string }[], protocol?: string,
 *   waitsOnIo?: boolean }} scenario mix: a service's weighted mix (method and path are then its first request's); waitsOnIo: its work
 *   waits on I/O, so the SUT's cpu cost there is marked (absent in results of earlier versions: read as false); protocol: the one it is
 *   spoken in (the scenarios' `PROTOCOLS`: http1, tls, h2, h2c, ws; absent in results of earlier versions: http1); what the connections
 *   negotiated is each phase's `protocolNegotiated`, where the engine says
 * @property {Omit<LoadSettings, 'engine'> & { connections: number, engine: import('../load/engines/engine.js').RecordedEngine,
 *   engineVersion: string, pinning: PinPlan }} load
 * @property {{ index: number, of: number }} repeat which of the repeats of its (SUT, scenario, connections) this run is
 * @property {RunStatus} status
 * @property {string | null} reason null when ok
 * @property {string | null} errorCode a DYNO_ERR_* code when the run failed, invalid or skipped through one
 * @property {import('../subjects/verify/verify-scenario.js').Verification} verification
 * @property {import('../load/load-plan.js').PhaseSummary | null} warmup
 * @property {import('../load/load-plan.js').PhaseSummary | null} summary
 * @property {import('../measures/instructions/counts/count-instructions.js').InstructionCount} [instructions] --measure instructions: the
 *   count
 * @property {import('../measures/capacity/capacity-cell.js').CapacityFigures} [capacity] --measure capacity: the ceiling, the steps, the
 *   capacity
 * @property {ReturnType<typeof import('../judging/warmup-analysis.js').analyzeWarmup> | null} warmupAnalysis when latency settled
 *   (stableAfterMs) and how much faster the steady state is than the first second
 * @property {import('../judging/cell-classification.js').CellClassification | null} [classification] the cell's series (warm-up and
 *   measurement as one) classified from its own change points, with what the runtime did around them; null: no series to classify
 * @property {ReturnType<typeof import('../judging/under-load-check.js').queryRatio> | null} serverCheck queries the service counted per
 *   response (redis, postgres)
 * @property {Consistency | null} [consistency] whether a wall-clock result agrees with itself (Little's
 *   law, the connections in flight, percentile order, errors); null for a count or a result without a measured phase
 * @property {import('../judging/disturbance.js').InterferenceVerdict | null} [interference] whether other processes or the hypervisor took
 *   more than the threshold of the SUT's or the generator's cpus while the cell was measured (the figures are in summary.interference),
 *   and the earlier measurements of a cell measured again because they were; null: not read (a count, no /proc/stat, no measured phase)
 * @property {import('../platform/hosts/link-rtt.js').LinkRtt[]} [links] a SUT on another host: the round trip from each load host to it,
 *   measured before load
 * @property {{ pid: number | null, ready: object | null, exit: { code: number | null, signal: string | null } | null, forcedKill: boolean,
 *   stderrTail: string[], servedBefore?: number, host?: string,
 *   launchWarmup?: import('../measures/wall-clock/launch-warmup.js').LaunchWarmup | null }} sutProcess host: where it ran (`local`, or an
 *   ssh:// URL); servedBefore: the cells this SUT process served before this one (0: started for it); exit: null while the process stays
 *   up for the next cell; launchWarmup: how the process was warmed over its routes before its first cell (null: it was not)
 * @property {Partial<Record<Stage, number>>} stagesMs where the run's time went: each stage it went through, in ms
 *
 * @typedef {{ name: 'littles-law' | 'connections-in-flight' | 'percentile-order' | 'errors' | 'steady-memory', passed: boolean,
 *   detail: string }} ConsistencyCheck
 * @typedef {{ passed: boolean, failed: string[], checks: ConsistencyCheck[] }} Consistency whether a result agrees with itself, as its
 *   measure checks it
 *
 * @typedef {'start' | 'launchWarmup' | 'verify' | 'link' | 'load' | 'count' | 'stop'} Stage start: until the SUT's ready line;
 *   launchWarmup: the launch warmed over its routes (launch-warmup.js); link: the round trip to a
 *   SUT on another host; load: the engine's phases, from its start to its report; count: a count under callgrind, its own start and stop
 *   included; stop: until the SUT's group is gone
 */

/**
 * A record for a run that is about to start; the run fills it in, and settleRecord sets how it ended.
 * @param {{ runId: string, env: ResultRecord['env'], load: LoadSettings, engine: import('../load/engines/engine.js').Engine, pinning:
 *   PinPlan }} run
 * @param {{ sut: import('../subjects/suts/resolve-subjects.js').Subject, scenario: import('@dyno/scenarios').Scenario, connections: number,
 *   repeat: { index: number, of: number } }} cell
 * @returns {ResultRecord}
 */
export function createResultRecord ({ runId, env, load, engine, pinning }, { sut, scenario, connections, repeat }) {
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
      workers: sut.workers,
      variant: sut.variant ?? null
    },
    scenario: {
      name: scenario.name,
      method: scenario.request.method,
      path: scenario.request.path,
      ...(scenario.request.mix ? { mix: scenario.request.mix } : {}),
      protocol: scenario.protocol,
      waitsOnIo: scenario.waitsOnIo
    },
    load: { ...load, connections, ...engine.recordedAs(load.ratePerSec), pinning },
    repeat,
    status: 'failed',
    reason: 'the run did not finish',
    errorCode: null,
    verification: { performed: false, passed: false, checks: [] },
    warmup: null,
    summary: null,
    warmupAnalysis: null,
    classification: null,
    serverCheck: null,
    sutProcess: { pid: null, ready: null, exit: null, forcedKill: false, stderrTail: [] },
    stagesMs: {}
  }
}

/**
 * Sets how a run ended, once, from the outcome it ended with.
 * @param {ResultRecord} record
 * @param {import('./outcome.js').Outcome} outcome
 * @returns {ResultRecord}
 */
export function settleRecord (record, { status, reason, errorCode }) {
  record.status = status
  record.reason = status === 'ok' ? null : reason
  record.errorCode = errorCode
  record.finishedAt = new Date().toISOString()
  return record
}

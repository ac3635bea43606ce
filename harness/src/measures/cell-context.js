// @ts-check
// What a measure is handed for a cell: what every cell of a suite shares (built once per suite by run-suite.js), what one cell is, what
// watches its SUT, the environment its SUT gets, what its loads run with, and how a stage of the cell is timed into its record.
import { runEnv } from '../platform/env/run-env.js'
import { protocolEnv } from '../subjects/sut-process/protocol-env.js'

/**
 * @typedef {object} RunContext what every run of a suite shares, built once per suite (run-suite.js)
 * @property {string} runId
 * @property {import('../records/result-record.js').ResultRecord['env']} env
 * @property {import('../records/result-record.js').LoadSettings} load
 * @property {import('./measure.js').Measure} measure the run's measure: how every cell is measured
 * @property {import('../load/engines/engine.js').Engine} engine the run's engine, chosen once (run-command.js): it loads every cell
 * @property {import('../platform/pinning/resolve-pinning.js').PinPlan} pinning where the SUT and the generator run
 * @property {import('../platform/hosts/host.js').Host} sutHost where SUTs and their services run: this machine, or one reached over SSH
 * @property {import('../load/engines/engine.js').LoadHost[] | null} loadHosts `--load-hosts`: the hosts the native engine runs on, each
 *   with its share of the connections; null: the run's engine, here
 * @property {boolean} verify
 * @property {number} readyTimeoutSec
 * @property {number} stopGraceSec
 * @property {number} requestTimeoutSec
 * @property {number} pgPoolSize
 * @property {import('../subjects/services/service-manager.js').Services} services the run's data services, started once
 * @property {import('../platform/resources/speed-probe/speed-probe.js').SpeedProbe | null} [speedProbe] how fast the SUT's cpus run, read
 *   in each sampled phase; null or absent: not probed (the SUTs are not pinned here)
 * @property {import('../subjects/tls/run-certificate.js').RunCertificate | null} [certificate] the run's certificate, made once when a
 *   scenario of the run is served over TLS; absent: none was made. Its caFile is what a client on this machine trusts
 * @property {{ certFile: string, keyFile: string, serverName: string } | null} [certificateOnSutHost] the same certificate's files where
 *   the SUTs run (copies on a host of its own), which a SUT serves with and a count made there trusts; absent: the SUTs run here, on
 *   `certificate`'s own files
 * @property {boolean} ci under CI a missing service fails the run instead of skipping it
 * @property {string | null} countCacheDir where counts are kept and reused (count-cache.js); null: every count is made anew
 * @property {boolean} censusArgs other processes are named by their (masked) arguments too (`--census-args on`)
 * @property {(line: string) => void} note one line for the user, beside the progress
 * @property {AbortSignal} signal
 *
 * @typedef {object} SutProbes what watches a cell's SUT process from outside its code
 * @property {string} eventLoopFile where the event-loop preload writes (when the SUT runs here)
 * @property {number | undefined} eventLoopIntervalMs its interval; undefined: the default
 * @property {import('../subjects/runtime-events/runtime-event-recording.js').RuntimeEventRecording} runtimeEvents
 *
 * @typedef {object} Cell one run of the suite: a SUT on one scenario at one level, one of its repeats
 * @property {import('../subjects/suts/resolve-subjects.js').Subject} sut
 * @property {import('@dyno/scenarios').Scenario} scenario
 * @property {number} connections
 * @property {{ index: number, of: number }} repeat
 * @property {string[]} sessionServices the services whose variables the SUT gets, should it be started for this cell: those of every
 *   cell the same process is to serve
 * @property {boolean} keepSut the next cell is the same SUT's: its process stays up for it, if this cell ends ok
 * @property {import('@dyno/scenarios').Scenario[]} launchScenarios the scenarios of every cell a launch of the SUT for this cell is to
 *   serve, distinct, in the order they come: those a fresh launch is warmed over (the measure's `warmLaunch`)
 * @property {(event: CellProgress) => void} [onProgress]
 *
 * @typedef {{ stage: string, phase?: string, elapsedSec?: number, requestsPerSec?: number | null }} CellProgress where a cell is, and
 *   under load its phase's rate so far
 */

/**
 * What a cell's SUT is started with: the run's mark, its services' addresses and secrets, the pool size, the protocol it serves (and
 * the run's certificate, for TLS).
 * @param {RunContext} context @param {Cell} cell @returns {Record<string, string>}
 */
export function sutEnv (context, { scenario }) {
  return {
    ...runEnv(context.runId),
    ...context.services.envFor(scenario.services ?? []),
    PG_POOL_SIZE: String(context.pgPoolSize),
    ...protocolEnv(scenario, context.certificateOnSutHost ?? context.certificate ?? null)
  }
}

/**
 * What every load of a cell's SUT runs with, its plan apart: the run's engine, here or on its load hosts, stopped when the run is
 * interrupted or the SUT exits, with the SUT and the generator sampled in each phase.
 * @param {RunContext} context @param {import('../subjects/sut-process/start-sut.js').RunningSut} running @param {SutProbes} probes
 * @returns {Omit<import('../load/loaded-phase.js').LoadedPhase, 'plan' | 'onProgress'>}
 */
export function cellLoad (context, running, probes) {
  const { engine, pinning } = context
  return {
    engine,
    engineSettings: engine.settingsOf(context.load),
    generatorCpus: pinning.generatorCpus,
    loadHosts: context.loadHosts,
    env: runEnv(context.runId),
    signal: context.signal,
    stopWhen: running.exited,
    sampling: {
      sutPgid: running.pid,
      sutReadGroup: running.readGroup,
      sutHere: context.sutHost.sharesProcesses,
      sutCpus: pinning.sutCpus,
      censusArgs: context.censusArgs,
      probes,
      speedProbe: context.speedProbe ?? null
    }
  }
}

/**
 * Adds the time `work` takes to the record's stage (a stage may be entered twice: the count stops its verified SUT first).
 * @template T
 * @param {{ stagesMs: Partial<Record<import('../records/result-record.js').Stage, number>> }} record
 * @param {import('../records/result-record.js').Stage} stage @param {() => Promise<T>} work
 * @returns {Promise<T>}
 */
export async function timedStage (record, stage, work) {
  const started = performance.now()
  try {
    return await work()
  } finally {
    record.stagesMs[stage] = Math.round((record.stagesMs[stage] ?? 0) + performance.now() - started)
  }
}

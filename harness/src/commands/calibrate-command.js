// @ts-check
// `dyno calibrate`: how much load can each generator produce on this machine? Against node-http and the
// fastest SUT (uwebsockets), each engine drives the plaintext scenario for a few seconds at the same
// connections, under the run's pinning: autocannon as `dyno run` uses it (one process per generator cpu,
// every response checked), the native engine (one thread per generator cpu, every response checked), wrk with
// the same checks in Lua, and wrk with no response() at all (its top speed). Each row says how much of its
// generator cpus the engine used; the ratios say how far each engine is from autocannon.
import { randomBytes } from 'node:crypto'
import { SCENARIOS } from '@dyno/scenarios'
import { DEFAULTS } from '../defaults.js'
import { ENGINE_VERSIONS } from '../env/fingerprint.js'
import { DynoError, isDynoError } from '../errors.js'
import { DEFAULT_PIN } from '../pinning/pin-option.js'
import { resolvePinning } from '../pinning/resolve-pinning.js'
import { scenarioLoadPlan } from '../load/load-plan.js'
import { startLoad } from '../load/run-load.js'
import { startWrkLoad } from '../load/wrk-engine.js'
import { findNativeEngine, startNativeLoad } from '../load/native-engine.js'
import { startResourceSampler } from '../resources/resource-sampler.js'
import { findWrk, wrkVersion } from '../load/wrk-phase.js'
import { runEnv } from '../run/run-env.js'
import { startSut } from '../sut-process/start-sut.js'
import { discoverSuts } from '../suts/discover-suts.js'
import { selectSuts } from '../suts/select.js'
import { formatInteger, formatMs } from '../ui/format.js'
import { createTable } from '../ui/table.js'
import { roundTo } from '../util/numbers.js'

/** The fastest SUTs: the generator, not the server, should be what runs out first. */
export const CALIBRATION_SUTS = ['node-http', 'uwebsockets']
const CALIBRATION_SCENARIO = 'plaintext'
/** @type {EngineName[]} */
const ENGINES = ['autocannon', 'native', 'wrk', 'wrk (no checks)']
/** The defaults of `dyno calibrate` (whole seconds, wrk's unit); the wrk threads are the run's (DEFAULTS.wrkThreads). */
export const CALIBRATION_DEFAULTS = Object.freeze({ durationSec: 5, warmupSec: 2 })

/**
 * @typedef {'autocannon' | 'native' | 'wrk' | 'wrk (no checks)'} EngineName
 *
 * @typedef {object} CalibrationRow
 * @property {string} sut
 * @property {number} connections
 * @property {EngineName} engine
 * @property {import('../load/load-plan.js').PhaseSummary | null} summary the measured phase
 * @property {number | null} generatorSharePct the share of its generator cpus the engine used while measuring (100: it was the limit)
 * @property {string | null} error why the engine gave no figures
 *
 * @typedef {object} CalibrateOptions
 * @property {string[]} [frameworks] default: CALIBRATION_SUTS
 * @property {number | number[]} [connections] one run per level; default: DEFAULTS.connections
 * @property {number} [durationSec] whole seconds (wrk's unit); default: CALIBRATION_DEFAULTS
 * @property {number} [warmupSec] whole seconds, 0: none; default: CALIBRATION_DEFAULTS
 * @property {number} [wrkThreads] default: DEFAULTS.wrkThreads
 * @property {number} [readyTimeoutSec]
 * @property {string} [runId] marks the SUT and generator processes (DYNO_RUN_ID); default: calibrate-<random>
 * @property {import('../pinning/pin-option.js').PinRequest | string} [pin] as `dyno run --pin` (default auto)
 * @property {number} [sutCpus] the SUT's cpus under auto pinning (default 1)
 */

/**
 * Runs the calibration and prints the table and the ratios. Returns the exit code: 0, 1 when an
 * engine failed or saw wrong answers (its figures are then not a calibration); interrupted (see main), after
 * printing what was measured.
 * @param {CalibrateOptions} options
 * @param {import('../cli/main.js').Io} io
 * @param {AbortSignal} signal
 * @returns {Promise<number>}
 */
export async function calibrate (options, io, signal) {
  const rows = await calibrationRows(options, signal)
  const pinning = resolvePinning(options.pin ?? DEFAULT_PIN, undefined, { sutCpus: options.sutCpus ?? 1 })
  io.stdout.write('pinning: ' +
    `${pinning.pinned ? `SUT on cpu ${pinning.sutCpus?.join(',')}, generators on cpu ${pinning.generatorCpus?.join(',')}` : `off (${pinning.reason})`}\n`)
  io.stdout.write(formatCalibration(rows, { wrkVersion: wrkVersionOrNote() }) + '\n')
  if (signal.aborted) {
    const error = new DynoError('DYNO_ERR_INTERRUPTED', 'calibration interrupted; the table shows what was measured')
    io.stderr.write(`${error.code}: ${error.message}\n`)
    return error.exitCode
  }
  return rows.some((row) => row.error !== null) ? 1 : 0
}

/**
 * @param {CalibrateOptions} options @param {AbortSignal} [signal]
 * @returns {Promise<CalibrationRow[]>}
 */
export async function calibrationRows (options, signal) {
  const suts = selectSuts(discoverSuts(), options.frameworks ?? CALIBRATION_SUTS)
  const levels = [options.connections ?? DEFAULTS.connections].flat()
  const durationSec = options.durationSec ?? CALIBRATION_DEFAULTS.durationSec
  const warmupSec = options.warmupSec ?? CALIBRATION_DEFAULTS.warmupSec
  const scenario = SCENARIOS.find((candidate) => candidate.name === CALIBRATION_SCENARIO)
  if (!scenario) throw new Error(`the ${CALIBRATION_SCENARIO} scenario is missing`)
  const mark = runEnv(options.runId ?? `calibrate-${randomBytes(3).toString('hex')}`)
  // The same pinning as `dyno run`: the SUT on its cpus, every engine on the generator's.
  const pinning = resolvePinning(options.pin ?? DEFAULT_PIN, undefined, { sutCpus: options.sutCpus ?? 1 })
  /** @type {CalibrationRow[]} */
  const rows = []
  for (const sut of suts) {
    for (const connections of levels) {
      if (signal?.aborted) return rows
      // A fresh SUT per level, warmed up again by each engine: no engine inherits another's JIT state unfairly.
      let running
      try {
        running = await startSut(sut, {
          readyTimeoutSec: options.readyTimeoutSec ?? DEFAULTS.readyTimeoutSec, stopGraceSec: DEFAULTS.stopGraceSec, env: mark, signal, cpus: pinning.sutCpus
        })
      } catch (error) {
        if (!isDynoError(error)) throw error
        if (error.code === 'DYNO_ERR_INTERRUPTED') return rows
        for (const engine of ENGINES) {
          rows.push({ sut: sut.name, connections, engine, summary: null, generatorSharePct: null, error: `${error.code}: ${error.message}` })
        }
        continue
      }
      try {
        /** @type {import('../load/load-plan.js').LoadPlan} */
        const plan = scenarioLoadPlan({ port: running.port, scenario, connections, pipelining: 1, warmupSec, durationSec, windowMs: 1000 })
        const common = { env: mark, cpus: pinning.generatorCpus }
        const wrkThreads = options.wrkThreads ?? DEFAULTS.wrkThreads
        /** @type {[EngineName, EngineStart][]} */
        const engines = [
          ['autocannon', (onPhase) => startLoad(plan, { ...common, onPhase })],
          ['native', (onPhase) => startNativeLoad(plan, { ...common, onPhase })],
          ['wrk', (onPhase) => startWrkLoad(plan, { ...common, threads: wrkThreads, onPhase })],
          ['wrk (no checks)', (onPhase) => startWrkLoad(plan, { ...common, threads: wrkThreads, checkResponses: false, onPhase })]
        ]
        for (const [engine, start] of engines) {
          if (signal?.aborted || running.hasExited()) break
          rows.push({
            sut: sut.name, connections, engine, ...await measureWith(start, signal, { generatorCores: pinning.generatorCpus?.length ?? 1, warmupSec })
          })
        }
      } finally {
        await running.stop(DEFAULTS.stopGraceSec * 1000)
      }
    }
  }
  return rows
}

/**
 * @typedef {(onPhase: (phase: 'warmup' | 'measure') => void) => { pids: number[], stop: () => void,
 *   done: Promise<{ phases: Partial<Record<'warmup' | 'measure', import('../load/load-plan.js').PhaseSummary>> }> }} EngineStart
 */

/**
 * Runs one engine and samples its processes' CPU over the measured phase.
 * @param {EngineStart} start
 * @param {AbortSignal | undefined} signal
 * @param {{ generatorCores: number, warmupSec: number }} context generatorCores: the cpus the generator may use
 * @returns {Promise<{ summary: import('../load/load-plan.js').PhaseSummary | null, generatorSharePct: number | null, error: string | null }>}
 */
async function measureWith (start, signal, { generatorCores, warmupSec }) {
  /** @type {ReturnType<typeof startResourceSampler> | null} */
  let sampler = null
  const sample = () => { if (load.pids.length > 0) sampler = startResourceSampler({ targets: { generator: { pids: load.pids } } }) }
  // The measured phase only; wrk starts it as a new process right after reporting the warm-up.
  const load = start((phase) => { if (phase === 'warmup') setImmediate(sample) })
  if (warmupSec === 0) setImmediate(sample)
  const stop = () => load.stop()
  signal?.addEventListener('abort', stop, { once: true })
  try {
    const outcome = await load.done
    const report = sampler ? /** @type {ReturnType<typeof startResourceSampler>} */ (sampler).stop() : null
    const summary = outcome.phases.measure ?? null
    if (!summary) return { summary, generatorSharePct: null, error: 'no measurement (stopped during warmup)' }
    const generator = report?.targets.generator
    const generatorSharePct = generator && generator.durationSec > 0 ? Math.round(generator.cpuSec / generator.durationSec / generatorCores * 1000) / 10 : null
    const wrong = summary.mismatches + summary.unexpectedStatus
    return { summary, generatorSharePct, error: wrong > 0 ? `${wrong} wrong answers: not a calibration` : null }
  } catch (error) {
    if (!isDynoError(error)) throw error
    return { summary: null, generatorSharePct: null, error: `${error.code}: ${error.message}` }
  } finally {
    signal?.removeEventListener('abort', stop)
  }
}

function wrkVersionOrNote () {
  const wrkPath = findWrk()
  return wrkPath ? wrkVersion(wrkPath) ?? 'wrk (version unknown)' : 'wrk not installed (apt-get install wrk)'
}

/**
 * The rows as a table, then per SUT and level the ratio of wrk's rate to autocannon's.
 * @param {CalibrationRow[]} rows
 * @param {{ wrkVersion: string }} versions
 * @returns {string}
 */
export function formatCalibration (rows, versions) {
  const table = createTable(['SUT', 'connections', 'engine', 'req/s', 'generator cpu %', 'p50 ms', 'p99 ms', 'errors', 'note'], {
    alignRight: [1, 3, 4, 5, 6, 7]
  })
  for (const row of rows) {
    const { summary } = row
    table.push([row.sut, row.connections, row.engine, formatInteger(summary?.requestsPerSec.mean), row.generatorSharePct ?? '-',
      formatMs(summary?.latencyMs?.p50), formatMs(summary?.latencyMs?.p99), summary ? summary.errors : '-', row.error ?? ''])
  }
  const native = findNativeEngine()
  const lines = [`engines: autocannon ${ENGINE_VERSIONS.autocannon} (one process per generator cpu, every response checked); ` +
    `native ${native.ok ? native.version : '(not built)'} (one thread per generator cpu, every response checked); ${versions.wrkVersion} (Lua checks)`,
  table.toString(),
  'generator cpu %: the share of the generator cpus the engine used while measuring; near 100 the engine, not the SUT, set the rate.']
  for (const ratio of calibrationRatios(rows)) {
    lines.push(`${ratio.sut} @ ${ratio.connections} connections, against autocannon: native ${ratio.native ?? '-'}×, wrk ${ratio.checked ?? '-'}×` +
      `${ratio.unchecked !== null ? `, wrk without checks ${ratio.unchecked}×` : ''}`)
  }
  return lines.join('\n')
}

/**
 * @param {CalibrationRow[]} rows
 * @returns {{ sut: string, connections: number, native: number | null, checked: number | null, unchecked: number | null }[]} rate ratios, 2 decimals
 */
export function calibrationRatios (rows) {
  const rate = (/** @type {CalibrationRow | undefined} */ row) => row && row.error === null ? row.summary?.requestsPerSec.mean ?? null : null
  const keys = [...new Set(rows.map((row) => `${row.sut}\0${row.connections}`))]
  return keys.map((key) => {
    const [sut, connections] = key.split('\0')
    const of = (/** @type {EngineName} */ engine) =>
      rate(rows.find((row) => row.sut === sut && String(row.connections) === connections && row.engine === engine))
    const base = of('autocannon')
    const ratio = (/** @type {number | null} */ value) => base && value !== null ? roundTo(value / base, 2) : null
    return { sut, connections: Number(connections), native: ratio(of('native')), checked: ratio(of('wrk')), unchecked: ratio(of('wrk (no checks)')) }
  })
}

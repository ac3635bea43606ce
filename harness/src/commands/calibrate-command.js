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
import { DynoError, isDynoError } from '../errors.js'
import { ENGINES } from '../load/engines/index.js'
import { resolvePinning } from '../pinning/resolve-pinning.js'
import { scenarioLoadPlan } from '../load/load-plan.js'
import { startResourceSampler } from '../resources/resource-sampler.js'
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
/** The defaults of `dyno calibrate` (whole seconds, wrk's unit); the wrk threads are the run's (DEFAULTS.wrkThreads). */
export const CALIBRATION_DEFAULTS = Object.freeze({ durationSec: 5, warmupSec: 2 })
/** What the ratios are taken against: the engine `dyno run` uses by default. */
const BASE_ENGINE = 'autocannon'

/**
 * @typedef {object} CalibrationRow
 * @property {string} sut
 * @property {number} connections
 * @property {string} engine an engine's calibration label (`wrk (no checks)`)
 * @property {import('../load/load-plan.js').PhaseSummary | null} summary the measured phase
 * @property {number | null} generatorSharePct the share of its generator cpus the engine used while measuring (100: it was the limit)
 * @property {string | null} error why the engine gave no figures
 *
 * @typedef {object} CalibrateOptions the parsed options of `dyno calibrate` (parse-command-line.js)
 * @property {string[]} frameworks
 * @property {number[]} connections one run per level
 * @property {number} durationSec whole seconds (wrk's unit)
 * @property {number} warmupSec whole seconds, 0: none
 * @property {number} wrkThreads
 * @property {number} readyTimeoutSec
 * @property {import('../pinning/parse-pin.js').PinRequest} pin as `dyno run --pin`
 * @property {number} sutCpus the SUT's cpus under auto pinning
 * @property {string} [runId] marks the SUT and generator processes (DYNO_RUN_ID); default: calibrate-<random>
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
  const pinning = resolvePinning(options.pin, undefined, { sutCpus: options.sutCpus })
  io.stdout.write('pinning: ' +
    `${pinning.pinned ? `SUT on cpu ${pinning.sutCpus?.join(',')}, generators on cpu ${pinning.generatorCpus?.join(',')}` : `off (${pinning.reason})`}\n`)
  io.stdout.write(formatCalibration(rows) + '\n')
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
  const suts = selectSuts(discoverSuts(), options.frameworks)
  const { durationSec, warmupSec } = options
  const scenario = SCENARIOS.find((candidate) => candidate.name === CALIBRATION_SCENARIO)
  if (!scenario) throw new Error(`the ${CALIBRATION_SCENARIO} scenario is missing`)
  const mark = runEnv(options.runId ?? `calibrate-${randomBytes(3).toString('hex')}`)
  // The same pinning as `dyno run`: the SUT on its cpus, every engine on the generator's.
  const pinning = resolvePinning(options.pin, undefined, { sutCpus: options.sutCpus })
  // Every engine installed here, each in every way it is calibrated (wrk with and without its checks).
  const calibrations = ENGINES.filter((engine) => engine.availability().ok)
    .flatMap((engine) => engine.calibrations.map((calibration) => ({ engine, ...calibration })))
  /** @type {CalibrationRow[]} */
  const rows = []
  for (const sut of suts) {
    for (const connections of options.connections) {
      if (signal?.aborted) return rows
      // A fresh SUT per level, warmed up again by each engine: no engine inherits another's JIT state unfairly.
      let running
      try {
        running = await startSut(sut, {
          readyTimeoutSec: options.readyTimeoutSec, stopGraceSec: DEFAULTS.stopGraceSec, env: mark, signal, cpus: pinning.sutCpus
        })
      } catch (error) {
        if (!isDynoError(error)) throw error
        if (error.code === 'DYNO_ERR_INTERRUPTED') return rows
        for (const { label } of calibrations) {
          rows.push({ sut: sut.name, connections, engine: label, summary: null, generatorSharePct: null, error: `${error.code}: ${error.message}` })
        }
        continue
      }
      try {
        /** @type {import('../load/load-plan.js').LoadPlan} */
        const plan = scenarioLoadPlan({ port: running.port, scenario, connections, pipelining: 1, warmupSec, durationSec, windowMs: 1000 })
        const hooks = { env: mark, cpus: pinning.generatorCpus }
        for (const { engine, label, start } of calibrations) {
          if (signal?.aborted || running.hasExited()) break
          const threads = engine.threads(connections, pinning.generatorCpus, options.wrkThreads)
          const measured = await measureWith((onPhase) => start(plan, { ...hooks, threads, onPhase }), signal, {
            generatorCores: pinning.generatorCpus?.length ?? 1, warmupSec
          })
          rows.push({ sut: sut.name, connections, engine: label, ...measured })
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

/**
 * The rows as a table, the engines with their versions (or why one is missing), then per SUT and level the ratio of each
 * engine's rate to autocannon's.
 * @param {CalibrationRow[]} rows
 * @returns {string}
 */
export function formatCalibration (rows) {
  const table = createTable(['SUT', 'connections', 'engine', 'req/s', 'generator cpu %', 'p50 ms', 'p99 ms', 'errors', 'note'], {
    alignRight: [1, 3, 4, 5, 6, 7]
  })
  for (const row of rows) {
    const { summary } = row
    table.push([row.sut, row.connections, row.engine, formatInteger(summary?.requestsPerSec.mean), row.generatorSharePct ?? '-',
      formatMs(summary?.latencyMs?.p50), formatMs(summary?.latencyMs?.p99), summary ? summary.errors : '-', row.error ?? ''])
  }
  const engines = ENGINES.map((engine) => {
    const found = engine.availability()
    return found.ok ? `${engine.name} ${found.version}` : `${engine.name} not measured: ${found.reason}`
  })
  const lines = [`engines: ${engines.join('; ')}`, table.toString(),
    'generator cpu %: the share of the generator cpus the engine used while measuring; near 100 the engine, not the SUT, set the rate.']
  for (const { sut, connections, ratios } of calibrationRatios(rows)) {
    lines.push(`${sut} @ ${connections} connections, against ${BASE_ENGINE}: ` +
      Object.entries(ratios).map(([label, ratio]) => `${label} ${ratio ?? '-'}×`).join(', '))
  }
  return lines.join('\n')
}

/**
 * @param {CalibrationRow[]} rows
 * @returns {{ sut: string, connections: number, ratios: Record<string, number | null> }[]} each engine's rate against autocannon's, 2 decimals
 */
export function calibrationRatios (rows) {
  const rate = (/** @type {CalibrationRow | undefined} */ row) => row && row.error === null ? row.summary?.requestsPerSec.mean ?? null : null
  const keys = [...new Set(rows.map((row) => `${row.sut}\0${row.connections}`))]
  return keys.map((key) => {
    const [sut, connections] = key.split('\0')
    const cell = rows.filter((row) => row.sut === sut && String(row.connections) === connections)
    const base = rate(cell.find((row) => row.engine === BASE_ENGINE))
    const ratios = Object.fromEntries(cell.filter((row) => row.engine !== BASE_ENGINE).map((row) => {
      const value = rate(row)
      return [row.engine, base && value !== null ? roundTo(value / base, 2) : null]
    }))
    return { sut, connections: Number(connections), ratios }
  })
}

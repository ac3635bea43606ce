// @ts-check
// `dyno calibrate`: how much load can each generator produce on this machine? Against node-http and the
// fastest SUT (uwebsockets), each engine drives the plaintext scenario for a few seconds at the same
// connections, under the run's pinning (engine-choice/engine-calibration.js): autocannon as `dyno run` uses it (one process
// per generator cpu, every response checked), the native engine (one thread per generator cpu, every response
// checked), wrk with the same checks in Lua, and wrk with no response() at all (its top speed). Each row says how
// much of its generator cpus the engine used and whether it set the pace; the ratios say how far each engine is
// from autocannon.
import { DynoError } from '../../platform/errors.js'
import { AUTO_CANDIDATES, ENGINES } from '../../load/engines/index.js'
import { resolvePinning } from '../../platform/pinning/resolve-pinning.js'
import { calibrationRows } from '../../measures/calibrations/engine-choice/engine-calibration.js'
import { discoverSuts } from '../../subjects/suts/discover-suts.js'
import { selectSuts } from '../../subjects/suts/select.js'
import { formatInteger, formatMs } from '../../platform/text/format.js'
import { createTable } from '../../platform/text/table.js'
import { roundTo } from '../../platform/util/numbers.js'
import { DEFAULT_LOAD } from '@dyno/scenarios'
import { defaultingTo } from '../../platform/options/option-spec.js'
import { wholeNumber } from '../../platform/options/option-parsers.js'
import { ENGINE_OPTIONS } from '../cli/option-table.js'
import { PIN, SUT_CPUS } from '../options/host-options.js'
import { CONNECTIONS } from '../options/load-options.js'
import { READY_TIMEOUT } from '../options/output-options.js'
import { FRAMEWORKS } from '../options/subject-options.js'

/** The fastest SUTs: the generator, not the server, should be what runs out first. */
export const CALIBRATION_SUTS = ['node-http', 'uwebsockets']
/** The defaults of `dyno calibrate` (whole seconds, wrk's unit); each engine's own options default as in a run. */
export const CALIBRATION_DEFAULTS = Object.freeze({ durationSec: 5, warmupSec: 2 })
/** What the ratios are taken against: the engine `auto` prefers, autocannon, the engine most published Node figures used. */
const BASE_ENGINE = AUTO_CANDIDATES[0].name

/**
 * @typedef {import('../../measures/calibrations/engine-choice/engine-calibration.js').CalibrationRow} CalibrationRow
 *
 * @typedef {object} CalibrateOptions the parsed options of `dyno calibrate` (parse-command-line.js)
 * @property {string[]} frameworks
 * @property {number[]} connections one run per level
 * @property {number} durationSec whole seconds (wrk's unit)
 * @property {number} warmupSec whole seconds, 0: none
 * @property {import('../../platform/options/option-spec.js').OptionValues} [engineOptions] the values of the engines' own options (the
 *   command's values themselves when it parsed them)
 * @property {number} readyTimeoutSec
 * @property {import('../../platform/pinning/parse-pin.js').PinRequest} pin as `dyno run --pin`
 * @property {number} sutCpus the SUT's cpus under auto pinning
 * @property {string} [runId] marks the SUT and generator processes (DYNO_RUN_ID); default: calibrate-<random>
 */

/**
 * Runs the calibration and prints the table and the ratios. Returns the exit code: 0, 1 when an
 * engine failed or saw wrong answers (its figures are then not a calibration); interrupted (see main), after
 * printing what was measured.
 * @param {CalibrateOptions} options
 * @param {import('../cli/io.js').Io} io
 * @param {AbortSignal} signal
 * @returns {Promise<number>}
 */
export async function calibrate (options, io, signal) {
  const pinning = resolvePinning(options.pin, undefined, { sutCpus: options.sutCpus })
  const rows = await calibrationRows({
    ...options, engineOptions: options.engineOptions ?? options, suts: selectSuts(discoverSuts(), options.frameworks), pinning, signal
  })
  const pinned = pinning.pinned
    ? `SUT on cpu ${pinning.sutCpus?.join(',')}, generators on cpu ${pinning.generatorCpus?.join(',')}`
    : `off (${pinning.reason})`
  io.stdout.write(`pinning: ${pinned}\n`)
  io.stdout.write(formatCalibration(rows) + '\n')
  if (signal.aborted) {
    const error = new DynoError('DYNO_ERR_INTERRUPTED', 'calibration interrupted; the table shows what was measured')
    io.stderr.write(`${error.code}: ${error.message}\n`)
    return error.exitCode
  }
  return rows.some((row) => row.error !== null) ? 1 : 0
}

/**
 * The rows as a table, the engines with their versions (or why one is missing), then per SUT and level the ratio of each
 * engine's rate to autocannon's.
 * @param {CalibrationRow[]} rows
 * @returns {string}
 */
export function formatCalibration (rows) {
  const table = createTable(
    ['SUT', 'connections', 'engine', 'req/s', 'generator cpu %', 'generator-bound', 'p50 ms', 'p99 ms', 'errors', 'note'],
    {
      alignRight: [1, 3, 4, 6, 7, 8]
    }
  )
  for (const row of rows) {
    const { summary } = row
    table.push([row.sut, row.connections, row.label, formatInteger(summary?.requestsPerSec.mean), row.generatorSharePct ?? '-',
      row.generatorBound === null ? '-' : row.generatorBound ? 'yes' : 'no',
      formatMs(summary?.latencyMs?.p50), formatMs(summary?.latencyMs?.p99), summary ? summary.errors : '-',
      [row.error, row.disturbed && `disturbed, after measuring again: ${row.disturbed}`].filter(Boolean).join('; ')])
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
 * @returns {{ sut: string, connections: number, ratios: Record<string, number | null> }[]} each engine's rate against autocannon's, 2
 *   decimals
 */
export function calibrationRatios (rows) {
  const rate = (/** @type {CalibrationRow | undefined} */ row) =>
    row && row.error === null ? (row.summary?.requestsPerSec.mean ?? null) : null
  const keys = [...new Set(rows.map((row) => `${row.sut}\0${row.connections}`))]
  return keys.map((key) => {
    const [sut, connections] = key.split('\0')
    const cell = rows.filter((row) => row.sut === sut && String(row.connections) === connections)
    const base = rate(cell.find((row) => row.label === BASE_ENGINE))
    const ratios = Object.fromEntries(cell.filter((row) => row.label !== BASE_ENGINE).map((row) => {
      const value = rate(row)
      return [row.label, base && value !== null ? roundTo(value / base, 2) : null]
    }))
    return { sut, connections: Number(connections), ratios }
  })
}

/** @type {import('../cli/command.js').Command} */
export const CALIBRATE_COMMAND = {
  name: 'calibrate',
  args: [],
  summary: 'Measure the most req/s each load generator drives against the fastest SUTs, with its generator cpu share, and their ratios',
  options: [
    { ...defaultingTo(FRAMEWORKS, CALIBRATION_SUTS), description: 'SUTs to calibrate against, comma-separated' },
    defaultingTo(CONNECTIONS, [DEFAULT_LOAD.connections]),
    {
      field: 'durationSec',
      flag: '--duration <sec>',
      description: 'Whole seconds each engine measures',
      parse: wholeNumber({ min: 1, max: 600 }),
      default: CALIBRATION_DEFAULTS.durationSec
    },
    {
      field: 'warmupSec',
      flag: '--warmup <sec>',
      description: 'Whole seconds of warmup per engine (0: none)',
      parse: wholeNumber({ min: 0, max: 600 }),
      default: CALIBRATION_DEFAULTS.warmupSec
    },
    ...ENGINE_OPTIONS, PIN,
    defaultingTo(SUT_CPUS, 1),
    READY_TIMEOUT
  ],
  run: ({ options }, io, signal) => calibrate(options.values, io, signal)
}

// @ts-check
// The wall-clock measure: req/s and latency of a cell under load from the run's engine, warm-up recorded apart, the SUT's and the
// generator's resources sampled per phase, every response checked; each result is checked against itself. The default of `dyno run`.
import { MIN_SERIES_LENGTH } from '../../judging/series-classification.js'
import { engineProblem, protocolProblem } from '../../load/engines/index.js'
import { DynoError } from '../../platform/errors.js'
import { exchangeOf, protocolText } from '../../records/result-protocol.js'
import { formatInteger, formatMs } from '../../platform/text/format.js'
import { commonSettings, invalidSetting, loadTimesText } from '../load-settings.js'
import { noisePlanOf } from '../calibrations/noise/noise-plan.js'
import { timedMachine } from '../timed-machine.js'
import { checkConsistency } from './consistency-check.js'
import { loadCell } from './load-cell.js'
import { warmLaunch } from './launch-warmup.js'
import { WALL_CLOCK_COMPARISON } from './wall-clock-comparison.js'
import { WALL_CLOCK_REPORT } from './report/wall-clock-report.js'

/**
 * Seconds a wall-clock cell spends besides its warm-up and measured load: the SUT's start (once per SUT for its consecutive cells),
 * verification, and writing the result. The default `pnpm bench` of 2026-11-26 here: 192 cells of 1 + 2 s in 584.9 s.
 */
const WALL_CLOCK_OVERHEAD_SEC = 0.05

/** @type {import('../measure.js').Measure} */
export const wallClock = Object.freeze({
  name: 'wall-clock',
  about: {
    help: 'wall-clock (req/s and latency under load)',
    unit: 'req/s and latency under load',
    run: ({ load, profile, engineReason }) => `profile ${profile}, ${loadTimesText(load)}, ${load.engine} (${engineReason})`,
    notes: () => []
  },
  options: [],
  plan: {
    defaultRepeats: (profile) => profile.repeats,
    settings: wallClockSettings,
    // A launch warms each of its routes once, and serves a cell on each: a cell's share of it is one route's.
    cellSec: (scenario, load) => Number(load.launchWarmupSec ?? 0) + load.warmupSec + load.durationSec + WALL_CLOCK_OVERHEAD_SEC,
    // Req/s spreads between launches of a SUT: the rounds that separate what the budget can tell apart come from the machine's spread.
    sizeRounds: noisePlanOf
  },
  // The run's engine loads the cells: the one named, if it speaks the run's protocols, else the one chosen by calibration.
  ownEngine: (named, scenarios) => {
    const unspoken = named ? protocolProblem(named, scenarios) : null
    if (unspoken) throw new DynoError('DYNO_ERR_INVALID_OPTION', unspoken)
    return null
  },
  // Load runs one cell at a time: two would share the cpus and measure each other.
  schedule: { cellsAtOnce: () => 1, sutPerCell: false, besideOtherWork: false },
  warmLaunch,
  measureCell: loadCell,
  judge: {
    consistency: checkConsistency,
    interference: (record) => record.summary?.interference ?? null,
    attempt: (record) => ({ requestsPerSec: record.summary?.requestsPerSec.mean ?? 0 })
  },
  merging: {
    machine: (runs) => timedMachine(runs[0]),
    acrossMachines: /** @type {const} */ ('when-allowed'),
    differing: "the parts were measured on machines that differ, so their req/s and latency are not one machine's"
  },
  comparison: {
    ...WALL_CLOCK_COMPARISON,
    gate: { preference: 1, when: 'always', unavailableHere: () => null },
    defaults: { rounds: (profile) => profile.repeats, scenarios: () => null },
    comparedBy: (profile) => `profile ${profile}`
  },
  report: {
    ...WALL_CLOCK_REPORT,
    resultLine: (record) => record.summary
      ? `  ${formatInteger(record.summary.requestsPerSec.mean)} ${exchangeOf(record)}/s, ` +
        `p99 ${formatMs(record.summary.latencyMs?.p99)} ms${exchangeOf(record) === 'msg' ? ' per message' : ''}` +
        `${record.summary.protocolNegotiated ? ` (${protocolText(record)})` : ''}`
      : '',
    terminalTable: null
  }
})

/**
 * The run's load settings, checked against what its engine can do and, for `--profile sustained`, against the windows a series needs.
 * @param {import('../load-settings.js').SettingsInput} options @param {import('../../load/engines/engine.js').Engine} engine
 * @returns {import('../../records/result-record.js').LoadSettings}
 */
function wallClockSettings (options, engine) {
  const { connections, durationSec, warmupSec, launchWarmupSec, ratePerSec, windowMs, streams } = options
  const problem = engineProblem(engine, {
    connections,
    durationSec,
    warmupSec,
    launchWarmupSec,
    ratePerSec,
    streams,
    settings: engine.settingsOf(options)
  })
  if (problem) throw invalidSetting(problem)
  const seriesWindows = Math.floor((warmupSec + durationSec) * 1000 / windowMs)
  if (options.profile === 'sustained' && seriesWindows < MIN_SERIES_LENGTH) {
    throw invalidSetting(
      `\`--profile sustained\` classifies each cell's series of ${windowMs} ms windows, and needs at least ` +
        `${MIN_SERIES_LENGTH} of them (${(MIN_SERIES_LENGTH * windowMs) / 1000} s of load); warm-up ${warmupSec} s and --duration ` +
          `${durationSec} s ` +
        `give ${seriesWindows}`
    )
  }
  return { ...commonSettings(options, engine), launchWarmupSec }
}

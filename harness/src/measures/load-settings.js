// @ts-check
import { DynoError } from '../platform/errors.js'
import { findCallgrind } from './instructions/counts/callgrind.js'
import { engineProblem } from '../load/engines/index.js'
import { MIN_SERIES_LENGTH } from '../judging/series-classification.js'

/**
 * The load settings of a run, the same for every cell (each cell adds its connections), shaped once from the parsed options of
 * `dyno run`, and checked against what the run's engine (or the count) can do before anything starts.
 * @param {Record<string, any>} options the parsed options of `dyno run` (parse-command-line.js)
 * @param {import('../load/engines/engine.js').Engine} engine the run's engine: the one given, or the one `--engine auto` chose (for a
 *   count, which sends its own requests, the one `auto` prefers: its name is what a count's result records)
 * @returns {import('../records/result-record.js').LoadSettings}
 * @throws {DynoError} DYNO_ERR_INVALID_OPTION: the engine is missing here or cannot honour the options; a count without callgrind
 */
export function loadSettings (options, engine) {
  const { pipelining, durationSec, warmupSec, windowMs, ratePerSec, wrkThreads, measure } = options
  const runtimeEvents = options.runtimeEvents === 'on'
  if (measure === 'instructions') {
    if (!findCallgrind()) {
      throw invalid('`--measure instructions` needs valgrind and vgdb on PATH (apt-get install valgrind); allowed here: wall-clock')
    }
    if (ratePerSec !== null) throw invalid('`--measure instructions` counts a fixed number of requests: give either `--rate` or `--measure instructions`')
    const { countWarmupRequests, countWindowRequests, countWindows, countJobs } = options
    return {
      pipelining,
      durationSec,
      warmupSec,
      windowMs,
      ratePerSec,
      engine: engine.name,
      wrkThreads,
      runtimeEvents: false,
      measure,
      countWarmupRequests,
      countWindowRequests,
      countWindows,
      countJobs
    }
  }
  const problem = engineProblem(engine, { connections: options.connections, durationSec, warmupSec, ratePerSec, wrkThreads })
  if (problem) throw invalid(problem)
  const seriesWindows = Math.floor((warmupSec + durationSec) * 1000 / windowMs)
  if (options.profile === 'sustained' && seriesWindows < MIN_SERIES_LENGTH) {
    throw invalid(`\`--profile sustained\` classifies each cell's series of ${windowMs} ms windows, and needs at least ${MIN_SERIES_LENGTH} of them ` +
      `(${MIN_SERIES_LENGTH * windowMs / 1000} s of load); warm-up ${warmupSec} s and --duration ${durationSec} s give ${seriesWindows}`)
  }
  return { pipelining, durationSec, warmupSec, windowMs, ratePerSec, engine: engine.name, wrkThreads, runtimeEvents, measure }
}

/** @param {string} message */
const invalid = (message) => new DynoError('DYNO_ERR_INVALID_OPTION', message)

// @ts-check
// What a measure shapes a run's load settings from (its `settings`: the same for every cell, each cell adds its connections), once, from
// the parsed options of `dyno run`, checked against what the run's engine (or the measure) can do before anything starts; and the part
// every measure's settings share.
import { DynoError } from '../platform/errors.js'

/**
 * @typedef {object} SettingsInput the options a run's settings are shaped from, as `dyno run` parsed them
 * @property {string} measure @property {string} profile @property {number[]} connections @property {number} pipelining
 * @property {number} durationSec @property {number} warmupSec @property {number} windowMs @property {number | null} ratePerSec
 * @property {'on' | 'off'} runtimeEvents
 * @property {number} streams h2, h2c: concurrent streams per connection; ws: messages in flight per connection
 * @property {number} [countWarmupRequests] @property {number} [countWarmupBoundRequests]
 * @property {number} [countWindowRequests] @property {number} [countWindows]
 * @property {number} [countJobs]
 */

/**
 * What every measure's settings start with, in the order a result records them.
 * @param {SettingsInput} options @param {import('../load/engines/engine.js').Engine} engine
 */
export function commonSettings (options, engine) {
  const { pipelining, streams, durationSec, warmupSec, windowMs, ratePerSec, runtimeEvents, measure } = options
  // The engine's own settings are recorded beside the run's, where a result has always kept them.
  return {
    pipelining,
    streams,
    durationSec,
    warmupSec,
    windowMs,
    ratePerSec,
    engine: engine.name,
    ...engine.settingsOf(options),
    runtimeEvents: runtimeEvents === 'on',
    measure
  }
}

/** @param {string} message @returns {DynoError} */
export const invalidSetting = (message) => new DynoError('DYNO_ERR_INVALID_OPTION', message)

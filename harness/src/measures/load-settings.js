// @ts-check
// What a measure shapes a run's load settings from (its `settings`: the same for every cell, each cell adds its connections), once, from
// the parsed options of `dyno run`, checked against what the run's engine (or the measure) can do before anything starts; and the part
// every measure's settings share.
import { DynoError } from '../platform/errors.js'

/**
 * @typedef {object} SettingsInput the options a run's settings are shaped from, as `dyno run` parsed them
 * @property {string} measure @property {string} profile @property {number[]} connections @property {number} pipelining
 * @property {number} durationSec @property {number} warmupSec @property {number} launchWarmupSec
 * @property {number} windowMs @property {number | null} ratePerSec
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

/**
 * How long a cell is loaded, in words: its warm-up and measured seconds, after the warm-up of its launch on each route when there is one.
 * @param {{ launchWarmupSec?: number, warmupSec: number, durationSec: number }} load a run's settings, or a profile
 * @returns {string} `0.2 s per route per launch, then 0.15 s warm-up + 1 s per cell`
 */
export const loadTimesText = ({ launchWarmupSec = 0, warmupSec, durationSec }) =>
  `${launchWarmupSec > 0 ? `${launchWarmupSec} s per route per launch, then ` : ''}${warmupSec} s warm-up + ${durationSec} s per cell`

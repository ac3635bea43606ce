// @ts-check
// How a run loads each cell: the profile its figures default from, the connections, how long, closed loop or a fixed rate, the engine and
// the measure, the windows of its series and whether the runtime's events are collected.
import { LOAD_PROFILES, DEFAULT_PROFILE } from '@dyno/scenarios'
import { DEFAULTS } from '../../platform/defaults.js'
import { oneOf, positiveNumber, seconds, wholeNumber, wholeNumberList } from '../../platform/options/option-parsers.js'
import { ENGINES, ENGINE_NAMES } from '../../load/engines/index.js'
import { MIN_RATE_PER_SEC } from '../../load/load-plan.js'
import { DEFAULT_MEASURE, MEASURES, measureNames } from '../../measures/index.js'
import { profileOf } from './profile-of.js'

/** @typedef {import('../../platform/options/option-spec.js').OptionSpec} OptionSpec */

/** @type {OptionSpec} */
export const PROFILE = {
  field: 'profile',
  flag: '--profile <name>',
  description: `Named load profile: ${Object.keys(LOAD_PROFILES).join(', ')}; explicit options override it`,
  parse: oneOf(Object.keys(LOAD_PROFILES)),
  default: DEFAULT_PROFILE
}

/** @type {OptionSpec} */
export const CONNECTIONS = {
  field: 'connections',
  flag: '--connections <n>',
  description: 'Concurrent connections the load generator keeps open; a list (10,100,1000) sweeps the levels',
  parse: wholeNumberList({ min: 1, max: 10_000 }),
  derive: (values) => profileOf(values).connections,
  defaultText: "the profile's"
}

/** @type {OptionSpec} */
export const DURATION = {
  field: 'durationSec',
  flag: '--duration <sec>',
  description: 'Seconds of measured load per SUT and scenario',
  parse: seconds({ min: 0, max: 3600, minExclusive: true }),
  derive: (values) => profileOf(values).durationSec,
  defaultText: "the profile's"
}

/** @type {OptionSpec} */
export const WARMUP = {
  field: 'warmupSec',
  flag: '--warmup <sec>',
  description: 'Seconds of warmup load before measuring, recorded apart; 0: none',
  parse: seconds({ min: 0, max: 3600 }),
  derive: (values) => profileOf(values).warmupSec,
  defaultText: "the profile's"
}

/** @type {OptionSpec} */
export const LAUNCH_WARMUP = {
  field: 'launchWarmupSec',
  flag: '--launch-warmup <sec>',
  description: 'Wall clock: seconds of load on each route a launch of a SUT serves, one route after another, before the first of its ' +
    'cells is measured, so that no cell pays for warming the framework for the cells after it; 0: none',
  parse: seconds({ min: 0, max: 600 }),
  derive: (values) => profileOf(values).launchWarmupSec,
  defaultText: "the profile's"
}

/** @type {OptionSpec} */
export const PIPELINING = {
  field: 'pipelining',
  flag: '--pipelining <n>',
  description: 'Requests in flight per connection (HTTP pipelining)',
  parse: wholeNumber({ min: 1, max: 100 }),
  derive: (values) => profileOf(values).pipelining,
  defaultText: "the profile's"
}

/** The most streams any engine keeps in flight on one connection; each engine says its own (`maxStreams`), checked before a run. */
const MOST_STREAMS = Math.max(...ENGINES.map((engine) => engine.maxStreams))

/** @type {OptionSpec} */
export const STREAMS = {
  field: 'streams',
  flag: '--streams <n>',
  description: 'HTTP/2 (h2-json, h2c-json): concurrent streams per connection; WebSocket (ws-echo): messages in flight per connection; ' +
    `up to the engine's most (${ENGINES.map((engine) => `${engine.name} ${engine.maxStreams}`).join(', ')}); the other scenarios keep ` +
    'one request in flight per connection, or --pipelining',
  parse: wholeNumber({ min: 1, max: MOST_STREAMS }),
  derive: (values) => profileOf(values).streams ?? 1,
  defaultText: "the profile's, else 1"
}

/** @type {OptionSpec} */
export const RATE = {
  field: 'ratePerSec',
  flag: '--rate <n>',
  description: 'Open model: send this many requests per second on a fixed schedule and measure latency from each intended send time ' +
    `(from ${MIN_RATE_PER_SEC}: one request in about 17 minutes)`,
  parse: positiveNumber({ min: MIN_RATE_PER_SEC, max: 1_000_000 }),
  default: null,
  defaultText: 'closed loop'
}

/** @type {OptionSpec} */
export const ENGINE = {
  field: 'engine',
  flag: '--engine <name>',
  description:
    'Load generator of the whole run: auto (autocannon where it keeps up with the fastest SUT on this machine, else the native ' +
    `engine; measured once per machine, kept in --cache-dir); ${ENGINES.map((engine) => engine.description).join('; or ')}`,
  parse: oneOf(['auto', ...ENGINE_NAMES]),
  derive: (values) => profileOf(values).engine ?? 'auto',
  defaultText: "the profile's: native with sustained, auto otherwise"
}

/** @type {OptionSpec} */
export const MEASURE = {
  field: 'measure',
  flag: '--measure <what>',
  description: MEASURES.map((measure) => measure.about.help).join(' or '),
  parse: oneOf(measureNames()),
  default: DEFAULT_MEASURE.name
}

/** @type {OptionSpec} */
export const WINDOW = {
  field: 'windowMs',
  flag: '--window-ms <ms>',
  description: 'Width of the latency-over-time windows (timeseries) in milliseconds',
  parse: wholeNumber({ min: 50, max: 60_000 }),
  default: DEFAULTS.windowMs
}

/** @type {OptionSpec} */
export const RUNTIME_EVENTS = {
  field: 'runtimeEvents',
  flag: '--runtime-events <on|off>',
  description: "Collect what each SUT's runtime did in every window: collections by kind and pause, functions optimised by tier and " +
    'deoptimised by reason (Node: the V8 log and perf_hooks; Go: its gctrace), and event-loop delay; the cost is in docs/measuring.md',
  parse: oneOf(['on', 'off']),
  derive: (values) => profileOf(values).runtimeEvents ? 'on' : 'off',
  defaultText: "the profile's: on with sustained, off otherwise"
}

// @ts-check
// The options of the instructions measure: how many requests a count answers uncounted, how many windows of how many requests it counts,
// how many counts run at once, and whether an identical count kept in the cache is reused. `dyno run`, the comparison commands, `dyno
// timeline` and `dyno bisect` take them.
import { flag, wholeNumber } from '../../platform/options/option-parsers.js'
import { machineCpus } from '../../platform/pinning/cpu-list.js'
import { INSTRUCTION_COUNT_DEFAULTS } from './counts/count-instructions.js'

/** @typedef {import('../../platform/options/option-spec.js').OptionSpec} OptionSpec */

/** @type {OptionSpec} */
export const COUNT_WARMUP_OPTION = {
  field: 'countWarmupRequests',
  flag: '--count-warmup <n>',
  description: 'With --measure instructions: requests answered, uncounted, before the counted windows (start-up, JIT)',
  parse: wholeNumber({ min: 0, max: 1_000_000 }),
  default: INSTRUCTION_COUNT_DEFAULTS.warmupRequests
}

/** @type {OptionSpec} */
export const COUNT_WARMUP_BOUND_OPTION = {
  field: 'countWarmupBoundRequests',
  flag: '--count-warmup-bound <n>',
  description: 'With --measure instructions: after --count-warmup, windows are counted until the last --count-windows of them agree ' +
    'and V8 compiles nothing in them; this bounds the requests answered before the counted windows (a count that reaches it is ' +
    'marked not settled); at most --count-warmup: a fixed warm-up',
  parse: wholeNumber({ min: 0, max: 1_000_000 }),
  default: INSTRUCTION_COUNT_DEFAULTS.warmupBoundRequests
}

/** @type {OptionSpec} */
export const COUNT_REQUESTS_OPTION = {
  field: 'countWindowRequests',
  flag: '--count-requests <n>',
  description: 'With --measure instructions: the requests of each counted window',
  parse: wholeNumber({ min: 1, max: 1_000_000 }),
  default: INSTRUCTION_COUNT_DEFAULTS.windowRequests
}

/** @type {OptionSpec} */
export const COUNT_WINDOWS_OPTION = {
  field: 'countWindows',
  flag: '--count-windows <n>',
  description: 'With --measure instructions: how many windows are counted, one after another; dyno compare pairs them window by window',
  parse: wholeNumber({ min: 1, max: 1000 }),
  default: INSTRUCTION_COUNT_DEFAULTS.windows
}

/** @type {OptionSpec} */
export const COUNT_JOBS_OPTION = {
  field: 'countJobs',
  partOfPlan: false,
  flag: '--count-jobs <n>',
  description:
    'With --measure instructions: counts made at once (each a SUT under valgrind; a count does not depend on what runs beside it)',
  parse: wholeNumber({ min: 1, max: machineCpus().length * 4 }),
  derive: () => machineCpus().length,
  defaultText: 'one per cpu'
}

/** @type {OptionSpec} */
export const NO_COUNT_CACHE_OPTION = {
  field: 'countCache',
  partOfPlan: false,
  flag: '--no-count-cache',
  description: 'With --measure instructions: count anew even where an identical count (same harness code of the count, SUT sources, ' +
    'lockfile, runtime, settings and scenario) is kept in --cache-dir; two fresh counts of the same code are what an A/A measurement needs',
  parse: flag,
  default: true
}

/** Every option of the measure, in help order. */
export const INSTRUCTIONS_OPTIONS = Object.freeze([COUNT_WARMUP_OPTION, COUNT_WARMUP_BOUND_OPTION, COUNT_REQUESTS_OPTION,
  COUNT_WINDOWS_OPTION, COUNT_JOBS_OPTION, NO_COUNT_CACHE_OPTION])

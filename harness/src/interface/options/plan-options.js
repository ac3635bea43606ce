// @ts-check
// The plan of a run: its rounds, its part of a split plan, its seed, one SUT process per cell or per SUT, and whether it verifies first.
import { randomInt } from 'node:crypto'
import { flag, oneOf, wholeNumber } from '../../platform/options/option-parsers.js'
import { RANK_BY_CHOICES } from '../../judging/rank-figure.js'
import { measureNamed } from '../../measures/index.js'
import { shardSpec } from '../cli/option-parsers.js'
import { profileOf } from './profile-of.js'

/** The seed of a sharded run when none is given: each part computes the plan alone, and all must draw the same. */
const SHARDED_SEED = 1

/** @typedef {import('../../platform/options/option-spec.js').OptionSpec} OptionSpec */

/** @type {OptionSpec} */
export const REPEATS = {
  field: 'repeats',
  flag: '--repeats <n>',
  description: 'Measure each (SUT, scenario, connections) this many times, in shuffled rounds, each a launch of every SUT; within a ' +
    'round every SUT of a scenario back to back (a block), so that the rank groups compare them within it',
  parse: wholeNumber({ min: 1, max: 1000 }),
  // A count is the same count in every round: one round of counts, whatever the profile's wall-clock rounds.
  derive: (values) => measureNamed(String(values.measure)).plan.defaultRepeats(profileOf(values)),
  defaultText: "the profile's (the default profile's sized from this machine's measured spread, within its 10 minutes, when " +
    '--duration and --warmup are not given either); 1 with --measure instructions; 3 launches with --measure capacity'
}

/** @type {OptionSpec} */
export const RANK_BY = {
  field: 'rankBy',
  partOfPlan: false,
  flag: '--rank-by <auto|req/s|cost>',
  description: 'The figure the rank groups of the overview are made on, and whose spread sizes the default profile\'s rounds: req/s ' +
    '(higher is better), or cost, the SUT\'s cpu µs per request (lower is better; steal is never in it). run.json records the figure',
  parse: oneOf(RANK_BY_CHOICES),
  default: 'auto',
  defaultText: 'auto: the steadier of the two on this machine, by the spreads its noise calibration measured in the same launches ' +
    '(cost where its spread is smaller); req/s where the calibration is not read or does not know the cost\'s spread'
}

/** @type {OptionSpec} */
export const SHARD = {
  field: 'shard',
  partOfPlan: false,
  flag: '--shard <K/N>',
  description: 'Carry out part K of N of the plan (every SUT × scenario × connections × runtime × repeat), the parts balanced by ' +
    'expected time, each cell in exactly one; run.json records the plan\'s identity, K and N, and `dyno merge` puts the parts together',
  parse: shardSpec,
  default: null,
  defaultText: 'the whole plan'
}

/** @type {OptionSpec} */
export const PLAN_ONLY = {
  field: 'planOnly',
  partOfPlan: false,
  flag: '--plan',
  description: 'Print the plan as JSON (its identity, cells and expected seconds, and each part of --shard\'s N) and measure nothing',
  parse: flag,
  default: false
}

/** @type {OptionSpec} */
export const SEED = {
  field: 'seed',
  flag: '--seed <n>',
  description: 'Seed of the shuffled order and the bootstrap',
  parse: wholeNumber({ min: 0, max: 4_294_967_295 }),
  // Every part of a plan must draw the same order: without a seed given, the parts of `--shard` share a fixed one.
  derive: (values) => values.shard ? SHARDED_SEED : randomInt(2 ** 32 - 1),
  defaultText: `random, recorded in run.json; with --shard, ${SHARDED_SEED}`
}

/** @type {OptionSpec} */
export const FRESH_SUT = {
  field: 'freshSut',
  flag: '--fresh-sut',
  description: 'Start the SUT anew for every (scenario, connections) cell, instead of once for the consecutive cells of a SUT ' +
    '(it is started again after a cell that did not end ok either way)',
  parse: flag,
  default: false
}

/** @type {OptionSpec} */
export const NO_VERIFY = {
  field: 'verify',
  flag: '--no-verify',
  description: 'Measure without checking the responses first (the result says so)',
  parse: flag,
  default: true
}

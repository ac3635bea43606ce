// @ts-check
// What compare-commits and compare-versions take of `dyno run`'s options for the rounds they run: all but --seed (each round's `dyno run`
// draws its own: a round is one run a side, so there is no order to shuffle) and --sut-host (a host's checkout is at one commit), with
// their own defaults: the ci profile, and the measure a comparison prefers where it can measure here (instructions where valgrind can
// count them), with that measure's rounds and scenarios. --measure comes first: the defaults of --scenarios and --repeats follow from it.
import { SCENARIOS } from '@dyno/scenarios'
import { measureNamed } from '../../measures/index.js'
import { COMPARISON_MEASURE, RUN_OPTIONS } from '../cli/option-table.js'
import { LOAD_HOSTS, SUT_HOST } from './host-options.js'
import { MEASURE, PROFILE } from './load-options.js'
import { PLAN_ONLY, RANK_BY, REPEATS, SEED, SHARD } from './plan-options.js'
import { profileOf } from './profile-of.js'
import { FRAMEWORKS, FRAMEWORKS_WITH_VARIANTS, SCENARIOS_OPTION } from './subject-options.js'

/** @typedef {import('../../platform/options/option-spec.js').OptionSpec} OptionSpec */
/** @typedef {import('../../platform/options/option-spec.js').OptionValues} OptionValues */

/** The profile of the comparisons: a few cheap scenarios, and as many rounds as the signed-rank test needs pairs. */
export const COMPARISON_PROFILE = 'ci'

/** @param {OptionValues} values @returns {import('../../measures/measure.js').Measure} the measure the values name */
const measureOf = (values) => measureNamed(String(values.measure))

/** @type {readonly OptionSpec[]} the options of compare-commits' rounds */
export const COMPARE_COMMITS_RUN_OPTIONS = Object.freeze([
  COMPARISON_MEASURE,
  // A comparison has verdicts, not rank groups: `--rank-by` is not one of its options.
  ...RUN_OPTIONS.filter((spec) => spec !== MEASURE && ![SEED, SUT_HOST, LOAD_HOSTS, RANK_BY].includes(spec))
].map((spec) => {
  // Variants are installed by the harness of each commit's worktree, which may predate them.
  if (spec === FRAMEWORKS_WITH_VARIANTS) return FRAMEWORKS
  if (spec === PROFILE) return { ...spec, default: COMPARISON_PROFILE }
  if (spec === REPEATS) {
    return {
      ...spec,
      description: 'Rounds: base and head once each, alternating which goes first',
      derive: (/** @type {OptionValues} */ values) => measureOf(values).comparison.defaults.rounds(profileOf(values)),
      defaultText: "the profile's; 1 with --measure instructions"
    }
  }
  if (spec === SCENARIOS_OPTION) {
    return {
      ...spec,
      derive: (/** @type {OptionValues} */ values) =>
        /** @type {import('../../subjects/apps/load-app.js').App | null} */ (values.app)?.scenarios.map((scenario) => scenario.name) ??
        measureOf(values).comparison.defaults.scenarios(profileOf(values)) ?? profileOf(values).scenarios ??
        SCENARIOS.map((scenario) => scenario.name),
      defaultText: "the profile's; plaintext, json, params with --measure instructions; with --app, the service's"
    }
  }
  return spec
}))

/**
 * compare-versions runs one `dyno run` of both variants (in the interleaved rounds of --repeats) with compare-commits' defaults; the
 * variants are its arguments, not --frameworks, and the run is neither split nor on another host. With --app they are versions of a
 * dependency of the service, and its scenarios are the run's.
 * @type {readonly OptionSpec[]}
 */
export const COMPARE_VERSIONS_RUN_OPTIONS = Object.freeze(
  COMPARE_COMMITS_RUN_OPTIONS.filter((spec) => ![FRAMEWORKS, SHARD, PLAN_ONLY].includes(spec))
)

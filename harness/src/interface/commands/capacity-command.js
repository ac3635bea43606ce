// @ts-check
// `dyno capacity`: `dyno run --measure capacity` with the defaults of a capacity question: per SUT × scenario the highest offered rate
// held within the objective (`--slo`), over fresh launches interleaved across SUTs, on the json scenario unless told. It prints the
// capacity table, writes report.md and report.html, and keeps every step measured, also when interrupted.
import { defaultingTo } from '../../platform/options/option-spec.js'
import { oneOf } from '../../platform/options/option-parsers.js'
import { MEASURE } from '../options/load-options.js'
import { SCENARIOS_OPTION } from '../options/subject-options.js'
import { RUN_OPTIONS } from '../cli/option-table.js'
import { runOrPlan } from '../runs/run-benchmarks.js'

/** The scenario a capacity question is asked on unless `--scenarios` says otherwise: the contract's plain JSON answer. */
export const CAPACITY_SCENARIOS = Object.freeze(['json'])

/** `--scenarios` of a capacity question: json, or every scenario of the service `--app` gives. */
const CAPACITY_SCENARIOS_OPTION = {
  ...defaultingTo(SCENARIOS_OPTION, null),
  default: undefined,
  derive: (/** @type {import('../../platform/options/option-spec.js').OptionValues} */ values) =>
    /** @type {import('../../subjects/apps/load-app.js').App | null} */ (values.app)?.scenarios.map((scenario) => scenario.name) ??
      [...CAPACITY_SCENARIOS],
  defaultText: `${CAPACITY_SCENARIOS.join(',')} (with --app, the service's)`
}

/** The measure of `dyno capacity`: capacity only (the other measures are `dyno run`'s). */
const CAPACITY_MEASURE = {
  ...MEASURE, description: 'capacity (`dyno run --measure` takes the other measures)', parse: oneOf(['capacity']), default: 'capacity'
}

/** @type {readonly import('../../platform/options/option-spec.js').OptionSpec[]} */
const CAPACITY_OPTIONS = Object.freeze(RUN_OPTIONS.map((spec) => spec === MEASURE
  ? CAPACITY_MEASURE
  : spec === SCENARIOS_OPTION ? CAPACITY_SCENARIOS_OPTION : spec))

/** @type {import('../cli/command.js').Command} */
export const CAPACITY_COMMAND = {
  name: 'capacity',
  args: [],
  summary: 'Find each SUT\'s capacity: the highest offered rate (open model, latency from each intended send time) it holds within the ' +
    'latency objective of --slo with no request failed, after its closed-loop ceiling; over fresh launches, with intervals and rank groups',
  options: CAPACITY_OPTIONS,
  run: ({ options }, io, signal) =>
    runOrPlan(/** @type {import('../../suite/prepare-run.js').RunValues} */ (options.values), io, signal, options.planFields)
}

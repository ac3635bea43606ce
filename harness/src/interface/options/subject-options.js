// @ts-check
// What a run measures: which SUTs (and versions of their frameworks), which scenarios, on which runtimes and how many server workers.
import { SCENARIOS } from '@dyno/scenarios'
import { DEFAULTS } from '../../platform/defaults.js'
import { wholeNumber } from '../../platform/options/option-parsers.js'
import { DEFAULT_RUNTIME, RUNTIME_NAMES } from '../../subjects/runtimes/runtime-targets.js'
import { discoverSuts } from '../../subjects/suts/discover-suts.js'
import { frameworkEntryList, frameworkList, runtimeList, scenarioList } from '../cli/option-parsers.js'
import { profileOf } from './profile-of.js'
import { appDirectory } from '../cli/option-parsers.js'

/** @typedef {import('../../platform/options/option-spec.js').OptionSpec} OptionSpec */

/**
 * `--app DIR`: the service in DIR, by its `dyno.config.yaml`, as the run's one subject and its scenarios as the run's; read and judged
 * here, before anything starts. It comes before the options whose defaults it sets (`--frameworks`, `--scenarios`).
 * @type {OptionSpec}
 */
export const APP = {
  field: 'app',
  flag: '--app <dir>',
  description: 'Measure your own service instead of the SUT packages: the directory holding its dyno.config.yaml (`.` for here); ' +
    'its scenarios become the run\'s, and a variant names a version of one of its dependencies (`--frameworks express@5.1.0` of ' +
    'dyno run, compare-versions\' arguments), run from a cached copy of the service installed with its lockfile (see docs/app.md)',
  parse: appDirectory,
  default: null
}

/** @param {import('../../platform/options/option-spec.js').OptionValues} values @returns {string[] | null} */
const appSubjects = (values) => /** @type {import('../../subjects/apps/load-app.js').App | null} */ (values.app)?.suts
  .map((sut) => sut.name) ?? null
/** @param {import('../../platform/options/option-spec.js').OptionValues} values @returns {string[] | null} */
const appScenarioNames = (values) => /** @type {import('../../subjects/apps/load-app.js').App | null} */ (values.app)?.scenarios
  .map((scenario) => scenario.name) ?? null

/** @type {OptionSpec} */
export const FRAMEWORKS = {
  field: 'frameworks',
  flag: '--frameworks <names>',
  description: 'SUTs to run, comma-separated (see `dyno list`)',
  parse: frameworkList,
  derive: (values) => appSubjects(values) ?? discoverSuts().map((sut) => sut.name),
  defaultText: 'all'
}

/** @type {OptionSpec} */
export const FRAMEWORKS_WITH_VARIANTS = {
  field: 'frameworks',
  flag: '--frameworks <names>',
  description:
    'SUTs to run, comma-separated (see `dyno list`); `name@version`, `name@range`, `name@dist-tag` or `name@path:<dir>` runs the SUT ' +
    'on that version of its framework, or on a checkout of it, as a row of its own (`express@4.21.2,express@5.3.0`), each ' +
      'installed into a ' +
    'cached copy of the SUT package in --cache-dir; with --app, the service by its name or a version of one of its dependencies ' +
    '(`express@4.22.1,express@5.1.0`), each installed into a cached copy of the service',
  parse: frameworkEntryList,
  derive: (values) => appSubjects(values) ?? discoverSuts().map((sut) => sut.name),
  defaultText: 'all'
}

/** @type {OptionSpec} */
export const SCENARIOS_OPTION = {
  field: 'scenarios',
  flag: '--scenarios <names>',
  description: 'Scenarios to run, comma-separated (see `dyno list`)',
  parse: scenarioList,
  derive: (values) => appScenarioNames(values) ?? profileOf(values).scenarios ?? SCENARIOS.map((scenario) => scenario.name),
  defaultText: "the profile's (with --app, the service's)"
}

/** @type {OptionSpec} */
export const RUNTIME = {
  field: 'runtimes',
  flag: '--runtime <names>',
  description: `JS runtimes to run each Node-compatible SUT on, comma-separated, side by side: ${RUNTIME_NAMES.join(', ')} ` +
    `(${DEFAULT_RUNTIME}: the Node running dyno)`,
  parse: runtimeList,
  default: [DEFAULT_RUNTIME]
}

/** @type {OptionSpec} */
export const WORKERS = {
  field: 'workers',
  flag: '--workers <n>',
  description: 'Server worker processes for SUTs that support them (gunicorn, uvicorn, Go GOMAXPROCS); others are skipped when n > 1',
  parse: wholeNumber({ min: 1, max: 64 }),
  default: DEFAULTS.workers
}

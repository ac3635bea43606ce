// @ts-check
// The argv of `dyno run` for a test, written as the values a run is given (each field by the name the option table parses it into,
// `durationSec`, `disturbedAbovePct`) rather than as a list of flags. The journeys share one short run unless they say otherwise:
// one round, half a second without warm-up, 10 connections, and a threshold of disturbance no machine passes, since what they
// check is the run's behaviour, not whether the machine was quiet.
import { RUN_OPTIONS } from '../../src/interface/cli/option-table.js'
import { flagName, takesValue } from '../../src/platform/options/option-spec.js'

/**
 * @typedef {Record<string, string | number | boolean | undefined>} RunFields a field: its value (undefined: left out); for an option
 *   given alone (`--plan`, `--no-count-cache`), the value it sets
 */

/** A short run whose figures no test judges. */
export const SHORT_RUN = Object.freeze({ repeats: 1, durationSec: 0.5, warmupSec: 0, connections: 10, disturbedAbovePct: 99 })

/**
 * @param {RunFields} fields the run's values, each by its field name (undefined: left out)
 * @param {string[]} [extra] flags that follow as they are (another command's, or one given twice)
 * @returns {string[]} `run` and its flags, in the order given
 * @throws {Error} a field no option of `dyno run` parses into, naming it
 */
export function dynoRun (fields, extra = []) {
  const argv = ['run']
  for (const [field, value] of Object.entries(fields)) {
    const spec = RUN_OPTIONS.find((option) => option.field === field)
    if (!spec) throw new Error(`dyno run has no option for the field \`${field}\``)
    if (value === undefined) continue
    if (!takesValue(spec)) {
      if (value !== (spec.default ?? false)) argv.push(flagName(spec))
    } else {
      argv.push(flagName(spec), String(value))
    }
  }
  return [...argv, ...extra]
}

/**
 * The argv of a short run (SHORT_RUN) with `fields` over it.
 * @param {RunFields} fields @param {string[]} [extra]
 * @returns {string[]}
 */
export const shortRun = (fields, extra = []) => dynoRun({ ...SHORT_RUN, ...fields }, extra)

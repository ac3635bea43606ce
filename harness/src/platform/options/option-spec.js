// @ts-check
// What an option of the command line is: its flag, the field its value fills (with its unit), how a value typed is judged, and its
// default or how it is derived from the values of the options before it. The specs are declared where they belong (the interface's
// shared ones, a command's own, an engine's or a measure's) and the command line is parsed, checked, defaulted, helped and documented
// from them alone.

/**
 * @typedef {Readonly<Record<string, unknown>>} OptionValues the values of a command's options, by field, as parsed or defaulted so far
 *
 * @typedef {object} OptionSpec
 * @property {string} field the name of the parsed value, with its unit (`durationSec`)
 * @property {string} flag as help shows it: `--connections <n>`, or `--paired` for one that takes no value
 * @property {string} description
 * @property {import('./option-parsers.js').OptionParser} parse judges the text as typed
 * @property {unknown} [default] the value when the option is not given
 * @property {(values: OptionValues) => unknown} [derive] the value when the option is not given, worked out from the values of the
 *   options before it (a profile's figure, the cpus of the workers)
 * @property {string} [defaultText] how help writes a default that is derived or not a plain value
 * @property {(values: OptionValues) => string | null} [notice] when the option is not given: the line the command prints to say why its
 *   default here is not the one it has where all is installed, or null
 * @property {false} [partOfPlan] it changes where or how fast a plan is carried out, or how its result is judged and shown, never what it
 *   measures: the parts of one plan (`--shard`) may differ in it, and it is not in the plan's identity
 */

/** @param {OptionSpec} spec @returns {string} the flag as typed, e.g. `--ready-timeout` */
export function flagName (spec) {
  return spec.flag.split(' ')[0]
}

/** @param {OptionSpec} spec @returns {boolean} whether the option takes a value (`--out <dir>`) or is given alone (`--paired`) */
export function takesValue (spec) {
  return spec.flag.includes('<')
}

/** @param {OptionSpec} spec @returns {string} the default as help writes it, '' when there is none to write */
export function defaultText (spec) {
  if (spec.defaultText !== undefined) return spec.defaultText
  if (spec.default === undefined || spec.default === null || typeof spec.default === 'boolean') return ''
  return Array.isArray(spec.default) ? spec.default.join(',') : String(spec.default)
}

/**
 * @param {OptionSpec} spec @param {unknown} value
 * @returns {OptionSpec} the option with a plain default instead of its own (derived) one
 */
export function defaultingTo (spec, value) {
  const { derive, defaultText, ...rest } = spec
  return { ...rest, default: value }
}

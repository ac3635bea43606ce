// @ts-check
// cac parses through mri, which turns every value that looks like a number into one (`--seed 1e3` becomes
// 1000, `--out 0123` 123, `--out ''` 0) and reads `--duration -1` as the unknown flag `-1`. The option
// table's parsers judge the text as typed, so every value of an option that takes one is joined to its flag
// (`--duration=-1`) before cac parses, and read back from there as text.
import { invalidOption } from './option-parsers.js'
import { cacKey, flagName } from './option-table.js'

/**
 * @param {string[]} argv as typed
 * @param {Set<string>} valueFlags the flags that take a value, e.g. `--duration`
 * @returns {string[]} argv with each such flag and its value as one `--flag=value`; a value that starts
 *   with `--` is another flag, so the first one is left without a value (and its parser says so)
 */
export function joinOptionValues (argv, valueFlags) {
  const joined = []
  for (let index = 0; index < argv.length; index++) {
    const token = argv[index]
    const next = argv[index + 1]
    if (token === '--') return [...joined, ...argv.slice(index)]
    if (valueFlags.has(token) && next !== undefined && !next.startsWith('--')) {
      joined.push(`${token}=${next}`)
      index++
    } else {
      joined.push(token)
    }
  }
  return joined
}

/**
 * The options of one command as given: cac's values, with the text as typed for every option that takes a
 * value (the last one when given twice).
 * @param {import('./option-table.js').OptionSpec[]} specs
 * @param {Record<string, unknown>} raw cac's options object
 * @param {string[]} joinedArgv what joinOptionValues returned
 * @returns {Record<string, unknown>} keyed like cac's object (`readyTimeout`)
 */
export function givenOptions (specs, raw, joinedArgv) {
  const given = { ...raw }
  const end = joinedArgv.indexOf('--')
  const options = end === -1 ? joinedArgv : joinedArgv.slice(0, end)
  for (const spec of specs) {
    const prefix = `${flagName(spec)}=`
    const typed = options.filter((token) => token.startsWith(prefix)).at(-1)
    if (typed !== undefined) given[cacKey(spec)] = typed.slice(prefix.length)
  }
  return given
}

/**
 * An option that takes no value given one (`--paired=yes`): cac would read it as a stray argument or an
 * unknown option; say what it is.
 * @param {string[]} argv
 * @param {Set<string>} plainFlags the flags that take no value, e.g. `--paired`
 * @throws {import('../errors.js').DynoError} DYNO_ERR_INVALID_OPTION
 */
export function checkPlainFlags (argv, plainFlags) {
  const end = argv.indexOf('--')
  for (const token of end === -1 ? argv : argv.slice(0, end)) {
    const equals = token.indexOf('=')
    if (equals > 0 && plainFlags.has(token.slice(0, equals))) throw invalidOption(token.slice(0, equals), token.slice(equals + 1), 'given without a value')
  }
}

/** @param {import('./option-table.js').OptionSpec} spec */
export function takesValue (spec) {
  return spec.flag.includes('<')
}

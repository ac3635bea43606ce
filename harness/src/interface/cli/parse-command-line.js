// @ts-check
// The command line, parsed once, from the tables: node:util's parseArgs (strict: an unknown option is an error)
// keeps every value as the text typed, the option table's parsers judge those texts, and the defaults are applied
// here and nowhere else. What comes out says which options were given, for commands that pass them on.
import { parseArgs } from 'node:util'
import { DynoError } from '../../platform/errors.js'
import { invalidOption } from '../../platform/options/option-parsers.js'
import { flagName, takesValue } from '../../platform/options/option-spec.js'

/**
 * @typedef {import('../../platform/options/option-spec.js').OptionSpec} OptionSpec
 *
 * @typedef {object} ParsedOptions
 * @property {any} values every option of the command, keyed by its field: as given, else its default (each command's handler
 *   says the fields it reads)
 * @property {Set<string>} given the fields given on the command line
 * @property {Set<string>} planFields the fields of the command's options that decide what a plan measures (its identity): all but
 *   those the option table marks `partOfPlan: false`
 * @property {Record<string, string | true>} typed the options given, by flag (`--duration`), as typed (the last when given twice)
 * @property {string[]} notices what the defaults applied here say about this machine (valgrind missing: compared by wall clock),
 *   one line each, printed before the command runs
 */

/**
 * Judges the options given to one command and applies the defaults of the others: plain defaults first, then those derived
 * from other values (a profile's figures) or found on the machine, in the command's order; then what those defaults have to say.
 * @param {readonly OptionSpec[]} specs the command's options
 * @param {Record<string, string | true>} typed by flag (`--duration`): the text typed, or true for an option given without a value
 * @returns {ParsedOptions}
 */
export function parseOptions (specs, typed) {
  /** @type {Record<string, unknown>} */
  const values = {}
  const given = new Set()
  for (const spec of specs) {
    const name = flagName(spec)
    if (!(name in typed)) continue
    const parsed = spec.parse(typed[name], name, values)
    // `--no-verify` given: the field it names is off.
    values[spec.field] = name.startsWith('--no-') ? !parsed : parsed
    given.add(spec.field)
  }
  for (const spec of specs) if (!given.has(spec.field) && !spec.derive) values[spec.field] = spec.default
  for (const spec of specs) if (!given.has(spec.field) && spec.derive) values[spec.field] = spec.derive(values)
  const notices = specs.flatMap((spec) => !given.has(spec.field) && spec.notice ? spec.notice(values) ?? [] : [])
  const planFields = new Set(specs.filter((spec) => spec.partOfPlan !== false).map((spec) => spec.field))
  return { values, given, typed, notices, planFields }
}

/**
 * @typedef {object} CommandLine
 * @property {import('./command.js').Command | null} command null: no command (dyno alone, `dyno --help`, `dyno --version`)
 * @property {'help' | 'version' | null} ask what was asked instead of running the command
 * @property {string[]} positionals the command's arguments
 * @property {ParsedOptions} options
 */

/**
 * @param {string[]} argv the arguments after `dyno`
 * @param {readonly import('./command.js').Command[]} commands the command table
 * @returns {CommandLine}
 * @throws {DynoError} DYNO_ERR_UNKNOWN_COMMAND, DYNO_ERR_INVALID_OPTION, or a parser's error naming the option and value
 */
export function parseCommandLine (argv, commands) {
  const [first, ...rest] = argv
  const none = { positionals: [], options: { values: {}, given: new Set(), typed: {}, notices: [], planFields: new Set() } }
  if (first === undefined || first === '--help' || first === '-h') return { command: null, ask: 'help', ...none }
  if (first === '--version' || first === '-v') return { command: null, ask: 'version', ...none }
  const command = commands.find((candidate) => candidate.name === first)
  if (!command) {
    throw new DynoError(
      'DYNO_ERR_UNKNOWN_COMMAND',
      `unknown command \`${first}\`; valid: ${commands.map((candidate) => candidate.name).join(', ')}`
    )
  }
  const specs = command.options
  /** @type {import('node:util').ParseArgsConfig['options']} */
  const options = { help: { type: 'boolean', short: 'h' } }
  for (const spec of specs) options[flagName(spec).slice(2)] = { type: takesValue(spec) ? 'string' : 'boolean' }
  let parsed
  try {
    parsed = parseArgs({ args: rest, options, strict: true, allowPositionals: true })
  } catch (error) {
    throw usageError(/** @type {Error & { code?: string }} */ (error), command, rest)
  }
  const { help, ...given } = parsed.values
  if (help) return { command, ask: 'help', ...none }
  checkArguments(command, parsed.positionals)
  /** @type {Record<string, string | true>} */
  const typed = Object.fromEntries(Object.entries(given).map(([name, value]) => [`--${name}`, /** @type {string | true} */ (value)]))
  return { command, ask: null, positionals: parsed.positionals, options: parseOptions(command.options, typed) }
}

/**
 * @param {{ name: string, args: readonly string[] }} command @param {string[]} positionals
 * @throws {DynoError} DYNO_ERR_INVALID_OPTION when an argument is missing or one too many is given
 */
function checkArguments (command, positionals) {
  const required = command.args.filter((arg) => arg.startsWith('<'))
  const any = command.args.some((arg) => arg.startsWith('[...'))
  const most = required.length + command.args.filter((arg) => arg.startsWith('[') && !arg.startsWith('[...')).length
  const usage = `\`dyno ${[command.name, ...command.args].join(' ')}\``
  if (positionals.length < required.length) {
    throw new DynoError('DYNO_ERR_INVALID_OPTION', `missing required args for command ${usage}: ` +
      `${required.slice(positionals.length).join(' ')} not given`)
  }
  if (!any && positionals.length > most) {
    throw new DynoError(
      'DYNO_ERR_INVALID_OPTION',
      `${usage} takes ${most === required.length ? '' : 'at most '}${most || 'no'} argument${most === 1 ? '' : 's'}, ` +
        `got also \`${positionals.slice(most).join(' ')}\``
    )
  }
}

/**
 * parseArgs's complaint, said the way every other bad value is said: naming the option, the value, and what is allowed.
 * @param {Error & { code?: string }} error @param {import('./command.js').Command} command @param {string[]} args
 * @returns {Error}
 */
function usageError (error, command, args) {
  const quoted = /'(-[^' ]+)/.exec(error.message)?.[1] ?? ''
  const name = quoted.startsWith('--') ? quoted.split('=')[0] : quoted
  const spec = command.options.find((candidate) => flagName(candidate) === name)
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const help = `\`dyno ${command.name} --help\` lists its options`
    return new DynoError('DYNO_ERR_INVALID_OPTION', `Unknown option \`${name}\` for \`dyno ${command.name}\`; ${help}`)
  }
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && spec) {
    if (!takesValue(spec)) {
      return invalidOption(name, args.find((arg) => arg.startsWith(`${name}=`))?.slice(name.length + 1) ?? '', 'given without a value')
    }
    const next = args[args.indexOf(name) + 1]
    // A value that starts with a dash (`--duration -1`): judged as typed; one the option accepts must be joined to it.
    if (next === undefined) return invalidOption(name, '', 'given a value')
    spec.parse(next, name)
    return invalidOption(name, next, `written \`${name}=${next}\` when its value starts with a dash`)
  }
  return new DynoError('DYNO_ERR_INVALID_OPTION', error.message)
}

// @ts-check
// `dyno --help` and `dyno <command> --help`, written from the command table and the option table.
import { defaultText } from '../../platform/options/option-spec.js'

/**
 * @param {readonly { name: string, args: readonly string[], summary: string }[]} commands
 * @param {string} version
 */
export function globalHelp (commands, version) {
  const usages = commands.map((command) => [command.name, ...command.args].join(' '))
  const width = Math.max(...usages.map((usage) => usage.length))
  return [
    `dyno/${version}`,
    '',
    'Usage:',
    '  $ dyno <command> [options]',
    '',
    'Commands:',
    ...commands.map((command, index) => `  ${usages[index].padEnd(width)}  ${command.summary}`),
    '',
    'For more info, run any command with the `--help` flag:',
    ...commands.map((command) => `  $ dyno ${command.name} --help`),
    '',
    'Options:',
    '  -h, --help     Display this message',
    '  -v, --version  Display version number',
    ''
  ].join('\n')
}

/**
 * @param {import('./command.js').Command} command
 * @param {string} version
 */
export function commandHelp (command, version) {
  const specs = command.options
  const width = Math.max(10, ...specs.map((spec) => spec.flag.length))
  return [
    `dyno/${version}`,
    '',
    'Usage:',
    `  $ dyno ${[command.name, ...command.args].join(' ')}${specs.length > 0 ? ' [options]' : ''}`,
    '',
    command.summary,
    '',
    'Options:',
    ...specs.map((spec) => {
      const fallback = defaultText(spec)
      return `  ${spec.flag.padEnd(width)}  ${spec.description}${fallback ? ` (default: ${fallback})` : ''}`
    }),
    `  ${'-h, --help'.padEnd(width)}  Display this message`,
    ''
  ].join('\n')
}

// @ts-check
// docs/cli.md, written from the tables the CLI itself runs on: the option table (flags, defaults, descriptions)
// and the load profiles. `pnpm docs:write` rewrites it; a test fails when the committed file is out of date.
import { LOAD_PROFILES, DEFAULT_PROFILE } from '@dyno/scenarios'
import { COMMANDS } from '../cli/command-table.js'
import { defaultText } from '../../platform/options/option-spec.js'
import { loadTimesText } from '../../measures/load-settings.js'

/** @param {string} text a table cell: no pipes, no line breaks */
const cell = (text) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ')

/** @param {import('../../platform/options/option-spec.js').OptionSpec} spec */
function defaultCell (spec) {
  const text = defaultText(spec)
  if (text === '') return ''
  // A plain value in code type; a description of a default (derived from the profile, say) in words.
  return spec.default !== undefined && spec.defaultText === undefined ? `\`${text}\`` : cell(text)
}

/** @param {readonly import('../../platform/options/option-spec.js').OptionSpec[]} specs */
function optionTable (specs) {
  return [
    '| option | default | meaning |',
    '|---|---|---|',
    ...specs.map((spec) => `| \`${spec.flag}\` | ${defaultCell(spec)} | ${cell(spec.description)} |`)
  ]
}

function profileTable () {
  return [
    '| profile | scenarios | connections | pipelining | warm-up and duration | repeats | for |',
    '|---|---|---|---|---|---|---|',
    ...Object.entries(LOAD_PROFILES).map(([name, profile]) =>
      `| \`${name}\`${name === DEFAULT_PROFILE ? ' (default)' : ''} | ${profile.scenarios ? profile.scenarios.join(', ') : 'all'} | ` +
      `${profile.connections.join(', ')} | ${profile.pipelining} | ${loadTimesText(profile)} | ` +
      `${profile.repeats} | ${cell(profile.summary)} |`)
  ]
}

/** @returns {string} the whole of docs/cli.md */
export function cliReference () {
  const lines = [
    '# dyno command-line reference',
    '',
    '<!-- Written by `pnpm docs:write` from the commands of harness/src/interface/cli/command-table.js, their options and ' +
      'scenarios/src/load-profiles.js; do not edit by hand. -->',
    '',
    'Every option is validated where it enters: a bad value exits with code 2 and a message naming the option, the value',
    'and what is allowed. `dyno <command> --help` prints the same table.',
    ''
  ]
  for (const command of COMMANDS) {
    const specs = command.options
    lines.push(`## dyno ${command.name}`, '', `\`dyno ${[command.name, ...command.args].join(' ')}\`: ${command.summary}.`, '')
    lines.push(...(specs.length > 0 ? optionTable(specs) : ['No options.']), '')
  }
  lines.push(
    '## Load profiles',
    '',
    'What `--profile` names; every option given explicitly overrides the profile.',
    '',
    ...profileTable(),
    ''
  )
  return lines.join('\n')
}

// @ts-check
// The options of `dyno app init`: the OpenAPI document a config is written from, and the command that starts the service.
import { inputFile, text } from '../../platform/options/option-parsers.js'

/** @type {import('../../platform/options/option-spec.js').OptionSpec} */
export const OPENAPI = {
  field: 'openapi',
  flag: '--openapi <file>',
  description: 'The service\'s OpenAPI 3 document (YAML or JSON): a scenario per operation a request can be made for',
  parse: inputFile,
  default: null
}

/** @type {import('../../platform/options/option-spec.js').OptionSpec} */
export const START = {
  field: 'start',
  flag: '--start <command>',
  description: 'The command that starts the service, run by sh in its directory (default: its package.json start script, else its main ' +
    'file)',
  parse: text,
  default: null
}

// @ts-check
// harness/ERRORS.md, written from the error catalogue (harness/src/platform/errors.js): its codes, exit statuses, what
// each means and what to do, the same hint the CLI prints. `pnpm docs:write` rewrites it; a test fails when
// the committed file is out of date.
import { join } from 'node:path'
import { ERRORS } from '../../platform/errors.js'
import { HARNESS_DIR } from '../../platform/paths.js'

/** Where the document lives (README.md links it). */
export const ERRORS_DOC_FILE = join(HARNESS_DIR, 'ERRORS.md')

/** @param {string} text a table cell: no pipes, no line breaks */
const cell = (text) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ')

/** @returns {string} the whole of harness/ERRORS.md */
export function errorsReference () {
  return [
    '# dyno error codes',
    '',
    '<!-- Written by `pnpm docs:write` from harness/src/platform/errors.js; do not edit by hand. -->',
    '',
    'Every error dyno reports carries one of these codes. The CLI prints `CODE: message` (the message',
    'names the bad value and what is allowed), then the code\'s hint (the last column), and exits with the',
    'code\'s exit status. In result files, a run that is not `ok` records the code in `errorCode` and the',
    'message in `reason`.',
    '',
    '| code | exit | when | what to do |',
    '|---|---|---|---|',
    ...Object.entries(ERRORS).map(([code, { exitCode, when, hint }]) => `| \`${code}\` | ${exitCode} | ${cell(when)} | ${cell(hint)} |`),
    ''
  ].join('\n')
}

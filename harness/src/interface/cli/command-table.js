// @ts-check
// The commands of dyno, in help order: each one file of interface/commands/ (command.js says what a command is). main.js dispatches through
// this list; help and docs/cli.md are written from it.
import { APP_COMMAND } from '../commands/app-command.js'
import { BISECT_COMMAND } from '../commands/bisect-command.js'
import { CALIBRATE_COMMAND } from '../commands/calibrate-command.js'
import { CAPACITY_COMMAND } from '../commands/capacity-command.js'
import { COMPARE_COMMAND } from '../commands/compare-command.js'
import { COMPARE_COMMITS_COMMAND } from '../commands/compare-commits-command.js'
import { COMPARE_VERSIONS_COMMAND } from '../commands/compare-versions-command.js'
import { EXPLAIN_COMMAND } from '../commands/explain-command.js'
import { HOST_COMMAND } from '../commands/host-command.js'
import { LIST_COMMAND } from '../commands/list-command.js'
import { MERGE_COMMAND } from '../commands/merge-command.js'
import { REPORT_COMMAND } from '../commands/report-command.js'
import { RUN_COMMAND } from '../commands/run-command.js'
import { SITE_COMMAND } from '../commands/site-command.js'
import { TIMELINE_ADD_COMMAND, TIMELINE_CHECK_COMMAND, TIMELINE_COMMAND } from '../commands/timeline-command.js'
import { VERIFY_COMMAND } from '../commands/verify-command.js'
import { parseOptions as parseOptionsOf } from './parse-command-line.js'

/** @type {readonly import('./command.js').Command[]} */
export const COMMANDS = Object.freeze([
  RUN_COMMAND,
  CAPACITY_COMMAND,
  VERIFY_COMMAND,
  APP_COMMAND,
  CALIBRATE_COMMAND,
  REPORT_COMMAND,
  COMPARE_COMMAND,
  COMPARE_COMMITS_COMMAND,
  COMPARE_VERSIONS_COMMAND,
  EXPLAIN_COMMAND,
  MERGE_COMMAND,
  TIMELINE_COMMAND,
  TIMELINE_ADD_COMMAND,
  TIMELINE_CHECK_COMMAND,
  BISECT_COMMAND,
  SITE_COMMAND,
  HOST_COMMAND,
  LIST_COMMAND
])

/** The options of each command, by its name. */
export const COMMAND_OPTIONS = Object.freeze(Object.fromEntries(COMMANDS.map((command) => [command.name, command.options])))

/**
 * The options of a command, as the command line would parse them.
 * @param {string} name a command's @param {Record<string, string | true>} typed by flag (`--duration`), as typed
 * @returns {import('./parse-command-line.js').ParsedOptions}
 */
export function parseOptions (name, typed) {
  const command = COMMANDS.find((candidate) => candidate.name === name)
  if (!command) throw new Error(`no command ${name}`)
  return parseOptionsOf(command.options, typed)
}

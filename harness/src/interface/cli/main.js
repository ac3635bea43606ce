// @ts-check
import { readFileSync } from 'node:fs'
import { isDynoError } from '../../platform/errors.js'
import { COMMANDS } from './command-table.js'
import { commandHelp, globalHelp } from './help-text.js'
import { interruptedExitCode, onInterrupt } from './interrupt.js'
import { parseCommandLine } from './parse-command-line.js'

const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'))

/** @typedef {import('./io.js').Io} Io */

/**
 * The dyno command line. Returns the exit code; never calls process.exit.
 * @param {string[]} argv the arguments after `node dyno.js`
 * @param {Io} [io]
 * @returns {Promise<number>}
 */
export async function main (argv, io = { stdout: process.stdout, stderr: process.stderr }) {
  let line
  try {
    line = parseCommandLine(argv, COMMANDS)
  } catch (error) {
    return reportError(error, io)
  }
  const command = line.command
  if (line.ask === 'version') io.stdout.write(`dyno/${version} ${process.platform}-${process.arch} node-${process.version}\n`)
  if (line.ask === 'help') io.stdout.write(command ? commandHelp(command, version) : globalHelp(COMMANDS, version))
  if (line.ask !== null || !command) return 0
  for (const notice of line.options.notices) io.stderr.write(`dyno ${command.name}: ${notice}\n`)
  const input = { positionals: line.positionals, options: line.options }
  // The command runs with an AbortSignal that an interruption (Ctrl-C, SIGTERM, SIGHUP, pnpm going away) aborts.
  return onInterrupt(async (signal) => {
    let code
    try {
      code = await command.run(input, io, signal)
    } catch (error) {
      code = reportError(error, io)
    }
    return signal.aborted ? interruptedExitCode(signal) : code
  })
}

/**
 * Prints `code: message` and the hint, and gives the exit code for the error.
 * @param {unknown} error
 * @param {Io} io
 */
function reportError (error, io) {
  if (isDynoError(error)) {
    io.stderr.write(`${error.code}: ${error.message}\n  ${error.hint}\n`)
    return error.exitCode
  }
  io.stderr.write(`dyno: unexpected error: ${error instanceof Error ? error.stack : String(error)}\n`)
  return 1
}

// @ts-check
import { cac } from 'cac'
import { readFileSync } from 'node:fs'
import { DynoError, isDynoError } from '../errors.js'
import { formatList } from '../commands/list-command.js'
import { anyVerifyFailure, formatVerifyMatrix, verifySuts } from '../commands/verify-command.js'
import { runCommand } from '../commands/run-command.js'
import { calibrate } from '../commands/calibrate-command.js'
import { writeReports } from '../commands/report-command.js'
import { compareCommand } from '../commands/compare-command.js'
import { compareCommitsCommand } from '../commands/compare-commits-command.js'
import { COMMAND_OPTIONS } from './option-table.js'
import { parseOptions } from './parse-options.js'
import { onInterrupt } from './interrupt.js'

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))

/**
 * @typedef {{ stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream & { isTTY?: boolean } }} Io
 */

/**
 * The dyno command line. Returns the exit code; never calls process.exit.
 * @param {string[]} argv the arguments after `node dyno.js`
 * @param {Io} [io]
 * @returns {Promise<number>}
 */
export async function main (argv, io = { stdout: process.stdout, stderr: process.stderr }) {
  const cli = cac('dyno')
  /** cac only parses; the matched command's handler is kept here and awaited below. */
  const matched = { action: /** @type {(() => Promise<number>) | null} */ (null) }
  const register = (/** @type {keyof typeof COMMAND_OPTIONS} */ name, /** @type {string} */ description, /** @type {(options: any) => Promise<number>} */ handler) => {
    const command = cli.command(name, description)
    for (const spec of COMMAND_OPTIONS[name]) command.option(spec.flag, spec.description, spec.default !== undefined && typeof spec.default !== 'boolean' ? { default: spec.default } : undefined)
    command.action((raw) => { matched.action = () => handler(parseOptions(name, raw)) })
  }
  register('run', 'Benchmark the selected SUTs on the selected scenarios and write one result file per run', (options) =>
    runCommand(options, io))
  register('verify', 'Start each SUT and check every scenario of the contract; exit 1 on any failure', async (options) => {
    const rows = await onInterrupt((signal) => verifySuts(options, { signal, onBuildLine: (name, line) => io.stderr.write(`build ${name}: ${line}\n`) }))
    io.stdout.write(formatVerifyMatrix(rows) + '\n')
    return anyVerifyFailure(rows) ? 1 : 0
  })
  register('calibrate', 'Measure the most req/s each load generator (autocannon, wrk) drives against the fastest SUTs, and their ratio', (options) =>
    calibrate(options, io))
  cli.command('report [...runDirs]', 'Write report.md and report.html into each run directory (default: the latest run; several: also side-by-side.md/.html in the last) and print their paths')
    .action((runDirs) => {
      matched.action = async () => {
        for (const path of writeReports(runDirs)) io.stdout.write(`${path}\n`)
        return 0
      }
    })
  const compare = cli.command('compare <baseline> <candidate>', 'Compare two runs (run directories, directories of runs, or result files): per SUT, scenario and connections, req/s and p99 with the change, its 95% interval, a Mann–Whitney test over the repeats and a verdict')
  for (const spec of COMMAND_OPTIONS.compare) compare.option(spec.flag, spec.description, spec.default !== undefined ? { default: spec.default } : undefined)
  compare.action((baseline, candidate, raw) => {
    matched.action = () => compareCommand(baseline, candidate, /** @type {any} */ (parseOptions('compare', raw)), io)
  })
  const compareCommits = cli.command('compare-commits <baseRef> <headRef>', 'Check two commits out into temporary git worktrees, install each, run them in alternating rounds (--repeats, default: the ci profile\'s 5) and compare them like `dyno compare`')
  // No defaults from cac here: only the run options the user gave are passed on to both commits' harnesses.
  for (const spec of COMMAND_OPTIONS['compare-commits']) compareCommits.option(spec.flag, spec.description)
  compareCommits.action((baseRef, headRef, raw) => {
    matched.action = () => compareCommitsCommand(String(baseRef), String(headRef), /** @type {any} */ (parseOptions('compare-commits', raw)), raw, io)
  })
  register('list', 'List the SUTs (with installed framework versions and validators) and the scenarios', async () => {
    io.stdout.write(formatList() + '\n')
    return 0
  })
  cli.help()
  cli.version(version)

  try {
    cli.parse(['node', 'dyno', ...argv], { run: false })
    if (cli.options.help || cli.options.version) return 0
    if (!cli.matchedCommand) {
      const given = cli.args[0]
      if (given === undefined) {
        cli.outputHelp()
        return 0
      }
      throw new DynoError('DYNO_ERR_UNKNOWN_COMMAND', `unknown command \`${given}\`; valid: run, verify, calibrate, report, compare, compare-commits, list`)
    }
    await cli.runMatchedCommand()
    return matched.action ? await matched.action() : 0
  } catch (error) {
    return reportError(error, io)
  }
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
  if (error instanceof Error && error.name === 'CACError') {
    io.stderr.write(`DYNO_ERR_INVALID_OPTION: ${error.message}\n  Run \`dyno <command> --help\` for the allowed values.\n`)
    return 2
  }
  io.stderr.write(`dyno: unexpected error: ${error instanceof Error ? error.stack : String(error)}\n`)
  return 1
}

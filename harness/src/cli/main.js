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
import { compareCommitsCommand, DEFAULT_COMPARE_PROFILE, INSTRUCTION_COUNT_ROUNDS, INSTRUCTION_COUNT_SCENARIOS } from '../commands/compare-commits-command.js'
import { LOAD_PROFILES } from '@dyno/scenarios'
import { COMMAND_OPTIONS, flagName } from './option-table.js'
import { parseOptions } from './parse-options.js'
import { checkPlainFlags, givenOptions, joinOptionValues, takesValue } from './option-texts.js'
import { interruptedExitCode, onInterrupt } from './interrupt.js'

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
  const specs = Object.values(COMMAND_OPTIONS).flat()
  const args = joinOptionValues(argv, new Set(specs.filter(takesValue).map(flagName)))
  const given = (/** @type {keyof typeof COMMAND_OPTIONS} */ name, /** @type {Record<string, unknown>} */ raw) => givenOptions(COMMAND_OPTIONS[name], raw, args)
  /**
   * cac only parses; the matched command's handler is kept here and awaited below, with the AbortSignal
   * that an interruption (Ctrl-C, SIGTERM, SIGHUP, pnpm going away) aborts.
   */
  const matched = { action: /** @type {((signal: AbortSignal) => Promise<number>) | null} */ (null) }
  const register = (
    /** @type {keyof typeof COMMAND_OPTIONS} */ name,
    /** @type {string} */ description,
    /** @type {(options: any, signal: AbortSignal) => Promise<number>} */ handler
  ) => {
    const command = cli.command(name, description)
    for (const spec of COMMAND_OPTIONS[name]) {
      command.option(spec.flag, spec.description, spec.default !== undefined && typeof spec.default !== 'boolean' ? { default: spec.default } : undefined)
    }
    command.action((raw) => { matched.action = (signal) => handler(parseOptions(name, given(name, raw)), signal) })
  }
  register('run', 'Benchmark the selected SUTs on the selected scenarios and write one result file per run', (options, signal) =>
    runCommand(options, io, signal))
  register('verify', 'Start each SUT and check every scenario of the contract; exit 1 on any failure', async (options, signal) => {
    const rows = await verifySuts(options, { signal, onBuildLine: (name, line) => io.stderr.write(`build ${name}: ${line}\n`) })
    io.stdout.write(formatVerifyMatrix(rows) + '\n')
    return anyVerifyFailure(rows) ? 1 : 0
  })
  register('calibrate', 'Measure the most req/s each load generator (autocannon, wrk) drives against the fastest SUTs, and their ratio', (options, signal) =>
    calibrate(options, io, signal))
  cli.command('report [...runDirs]', 'Write report.md and report.html into each run directory ' +
    '(default: the latest run; several: also side-by-side.md/.html in the last) and print their paths')
    .action((runDirs) => {
      matched.action = async () => {
        for (const path of writeReports(runDirs)) io.stdout.write(`${path}\n`)
        return 0
      }
    })
  const compare = cli.command('compare <baseline> <candidate>', 'Compare two runs (run directories, directories of runs, or result files): ' +
    'per SUT, scenario and connections, req/s and p99 with the change, its 95% interval, a Mann–Whitney test over the repeats and a verdict')
  for (const spec of COMMAND_OPTIONS.compare) compare.option(spec.flag, spec.description, spec.default !== undefined ? { default: spec.default } : undefined)
  compare.action((baseline, candidate, raw) => {
    matched.action = async () => compareCommand(String(baseline), String(candidate), /** @type {any} */ (parseOptions('compare', given('compare', raw))), io)
  })
  const compareCommits = cli.command('compare-commits <baseRef> <headRef>', 'Check two commits out into temporary git worktrees, install each, ' +
    `run them in alternating rounds (--repeats, default: the ${DEFAULT_COMPARE_PROFILE} profile's ${LOAD_PROFILES[DEFAULT_COMPARE_PROFILE].repeats}; ` +
    `with --measure instructions ${INSTRUCTION_COUNT_ROUNDS}, on ${INSTRUCTION_COUNT_SCENARIOS.join(', ')} unless --scenarios says otherwise) ` +
    'and compare them like `dyno compare`')
  // No defaults from cac here: only the run options the user gave are passed on to both commits' harnesses.
  for (const spec of COMMAND_OPTIONS['compare-commits']) compareCommits.option(spec.flag, spec.description)
  compareCommits.action((baseRef, headRef, raw) => {
    const options = given('compare-commits', raw)
    matched.action = (signal) =>
      compareCommitsCommand(String(baseRef), String(headRef), /** @type {any} */ (parseOptions('compare-commits', options)), options, io, signal)
  })
  register('list', 'List the SUTs (with installed framework versions and validators) and the scenarios', async () => {
    io.stdout.write(formatList() + '\n')
    return 0
  })
  cli.help()
  cli.version(version)

  try {
    checkPlainFlags(args, new Set(specs.filter((spec) => !takesValue(spec)).map(flagName)))
    cli.parse(['node', 'dyno', ...args], { run: false })
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
  } catch (error) {
    return reportError(error, io)
  }
  const action = matched.action
  if (!action) return 0
  return onInterrupt(async (signal) => {
    let code
    try {
      code = await action(signal)
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
  if (error instanceof Error && error.name === 'CACError') {
    // cac says "option `--out <dir>` value is missing" for `--out ''`; say it the way every other bad value is said.
    const missing = /^option `(--[\w-]+) .*` value is missing$/.exec(error.message)
    const message = missing ? `\`${missing[1]}\` needs a value, got \`\`` : error.message
    return reportError(new DynoError('DYNO_ERR_INVALID_OPTION', message), io)
  }
  io.stderr.write(`dyno: unexpected error: ${error instanceof Error ? error.stack : String(error)}\n`)
  return 1
}

// @ts-check
// The commands of dyno, in help order: what each is called, the arguments it takes, what it does, and how it runs
// with what the command line gave it. main.js dispatches through this table; help and docs/cli.md are written from it.
import { LOAD_PROFILES } from '@dyno/scenarios'
import { bisectCommand } from '../commands/bisect-command.js'
import { calibrate } from '../commands/calibrate-command.js'
import { compareCommand } from '../commands/compare-command.js'
import { compareCommitsCommand, COMPARE_COMMITS_DEFAULTS } from '../commands/compare-commits-command.js'
import { compareVersionsCommand } from '../commands/compare-versions-command.js'
import { hostCommand } from '../commands/host-command.js'
import { mergeCommand } from '../commands/merge-command.js'
import { formatList } from '../commands/list-command.js'
import { writeReports } from '../commands/report-command.js'
import { runCommand } from '../commands/run-command.js'
import { siteCommand } from '../commands/site-command.js'
import { timelineAddCommand, timelineCommand } from '../commands/timeline-command.js'
import { anyVerifyFailure, formatVerifyMatrix, verifySuts } from '../commands/verify-command.js'
import { COMMAND_OPTIONS, flagName } from './option-table.js'
import { parseOptions } from './parse-command-line.js'

/**
 * @typedef {object} CommandInput
 * @property {string[]} positionals
 * @property {import('./parse-command-line.js').ParsedOptions} options
 *
 * @typedef {object} Command
 * @property {import('./option-table.js').CommandName} name
 * @property {readonly string[]} args `<name>` required, `[...names]` any number
 * @property {string} summary
 * @property {(input: CommandInput, io: import('./main.js').Io, signal: AbortSignal) => Promise<number>} run returns the exit code
 */

const { profile: compareProfile, instructionRounds, instructionScenarios } = COMPARE_COMMITS_DEFAULTS

/** @type {readonly Command[]} */
export const COMMANDS = Object.freeze([
  {
    name: 'run',
    args: [],
    summary: 'Benchmark the selected SUTs on the selected scenarios and write one result file per run',
    run: ({ options }, io, signal) => runCommand(options.values, io, signal, options.planFields)
  },
  {
    name: 'verify',
    args: [],
    summary: 'Start each SUT and check every scenario of the contract; exit 1 on any failure',
    run: async ({ options }, io, signal) => {
      const rows = await verifySuts(options.values, { signal, onBuildLine: (name, line) => io.stderr.write(`build ${name}: ${line}\n`) })
      io.stdout.write(formatVerifyMatrix(rows) + '\n')
      return anyVerifyFailure(rows) ? 1 : 0
    }
  },
  {
    name: 'calibrate',
    args: [],
    summary: 'Measure the most req/s each load generator drives against the fastest SUTs, with its generator cpu share, and their ratios',
    run: ({ options }, io, signal) => calibrate(options.values, io, signal)
  },
  {
    name: 'report',
    args: ['[...runDirs]'],
    summary: 'Write report.md and report.html into each run directory (default: the latest run; several: also side-by-side.md/.html in the last) ' +
      'and print their paths',
    run: async ({ positionals }, io) => {
      for (const path of writeReports(positionals)) io.stdout.write(`${path}\n`)
      return 0
    }
  },
  {
    name: 'compare',
    args: ['<baseline>', '<candidate>'],
    summary: 'Compare two runs (run directories, directories of runs, or result files): per SUT, scenario and connections, req/s and p99 ' +
      '(or instructions per request) with the change, its 95% interval, a rank test over the repeats and a verdict',
    run: ({ positionals: [baseline, candidate], options }, io) => compareCommand(baseline, candidate, options.values, io)
  },
  {
    name: 'compare-commits',
    args: ['<baseRef>', '<headRef>'],
    summary: 'Check two commits out into temporary git worktrees, install each, run them in alternating rounds and compare them like ' +
      `\`dyno compare\`: by instructions per request where valgrind is installed (${instructionRounds} round, on ${instructionScenarios.join(', ')} ` +
      'unless --scenarios says otherwise), else by wall clock, saying so (--repeats, default: the ' +
      `${compareProfile} profile's ${LOAD_PROFILES[compareProfile].repeats}); --measure chooses either`,
    run: ({ positionals: [baseRef, headRef], options }, io, signal) => compareCommitsCommand(baseRef, headRef, ({
      ...options.values,
      // Only the SUTs named are installed in the worktrees; none named: each commit's own, all of them.
      frameworks: options.given.has('frameworks') ? options.values.frameworks : null,
      // By instructions, compare-commits shares the count jobs between the two sides it counts at once.
      countJobsGiven: options.given.has('countJobs')
    }), forwardedRunArgs(options), io, signal, options.planFields)
  },
  {
    name: 'compare-versions',
    args: ['<baseline>', '<candidate>'],
    summary: 'Measure two variants of one SUT\'s framework (`express@4.21.2 express@5.3.0`; a version, range, dist-tag, `path:<dir>` of a ' +
      'checkout, or the SUT\'s own pin by its bare name) in one run, their rounds interleaved, each installed into a cached copy of the SUT ' +
      'package, and compare them like compare-commits (by instructions on ' +
      `${instructionScenarios.join(', ')} where valgrind is installed, else by wall clock, saying so)`,
    run: ({ positionals: [baseline, candidate], options }, io, signal) =>
      compareVersionsCommand(baseline, candidate, options.values, io, signal, options.planFields)
  },
  {
    name: 'merge',
    args: ['<partDir>', '[...partDirs]'],
    summary: 'Put the parts of a split plan (`dyno run --shard K/N` or `dyno compare-commits --shard K/N`, each part a directory) back ' +
      'together: one run directory with every result, run.json, aggregates and reports (or one compare-commits results directory), ' +
      'refusing parts of different plans or commits, a part missing or given twice, and wall-clock parts of machines that differ',
    run: ({ positionals, options }, io) => mergeCommand(positionals, options.values, io)
  },
  {
    name: 'timeline',
    args: ['<dataDir>'],
    summary: 'Count every release of a framework in a range (`--frameworks express@>=4.18`, thinned by --releases) on each --runtime and ' +
      'scenario, and append the counts to a data directory that keeps every record it was given (docs/timeline.md); counts already ' +
      'made are reused from the count cache, records already held are not written again',
    run: ({ positionals: [dataDir], options }, io, signal) => timelineCommand(dataDir, options, io, signal, (typed) => parseOptions('run', typed))
  },
  {
    name: 'timeline-add',
    args: ['<dataDir>', '<runDir>', '[...runDirs]'],
    summary: 'Append the releases counted in runs of `dyno timeline` made elsewhere (the parts of a matrix, merged by `dyno merge`) to a ' +
      'data directory',
    run: ({ positionals: [dataDir, ...runDirs] }, io, signal) => timelineAddCommand(dataDir, runDirs, io, signal)
  },
  {
    name: 'bisect',
    args: ['<sut>', '<checkout>', '<good>', '<bad>'],
    summary: 'Find the first commit between two refs of a framework\'s git checkout whose instruction count steps against the good one\'s ' +
      '(beyond --threshold and the counts\' own spread), by bisection: each commit judged is checked out into a worktree and counted as ' +
      'the SUT\'s `path:` variant, its count kept in the count cache',
    run: ({ positionals: [sut, checkout, good, bad], options }, io, signal) =>
      bisectCommand({ sut, checkout, good, bad }, options, io, signal, (typed) => parseOptions('run', typed))
  },
  {
    name: 'site',
    args: ['<dataDir>', '[...dataDirs]'],
    summary: 'Write a static site of timeline data directories (read together) that opens offline: per framework, each measure by release ' +
      'with a line per runtime and its steps marked and listed; per runtime, every framework by publish date; the steps along Node ' +
      'releases; every record linked; with --suite-run, that run\'s report',
    run: ({ positionals, options }, io) => siteCommand(positionals, options.values, io)
  },
  {
    name: 'host',
    args: ['<action>', '<url>'],
    summary: 'prepare ssh://[user@]host[:port][/dir]: put this commit of dyno on a host (in dir, `~/dyno` by default), install it there ' +
      'and say what the host lacks; `dyno run --sut-host` then runs SUTs there (docs/hosts.md)',
    run: ({ positionals: [action, url] }, io) => hostCommand(action, url, io)
  },
  {
    name: 'list',
    args: [],
    summary: 'List the SUTs (with installed framework versions and validators), the runtimes and the scenarios',
    run: async (input, io) => {
      io.stdout.write(formatList() + '\n')
      return 0
    }
  }
])

/** Run options compare-commits sets itself for every round's `dyno run`. */
const OWN_RUN_FLAGS = new Set(['--repeats', '--out', '--seed', '--profile', '--scenarios', '--measure', '--count-jobs', '--shard', '--plan'])

/** What `dyno run` measures unless told. */
const RUN_MEASURE = COMMAND_OPTIONS.run.find((spec) => spec.field === 'measure')?.default

/**
 * The `dyno run` options of every round of compare-commits, for both commits' harnesses: the profile, scenarios and measure it
 * settled on, and the run options the user gave, as typed. Only those are passed on, so an older commit's harness is not handed an
 * option it never had (nor --measure, when it is what `dyno run` measures anyway).
 * @param {import('./parse-command-line.js').ParsedOptions} options of compare-commits
 * @returns {string[]}
 */
export function forwardedRunArgs ({ values, typed }) {
  const runFlags = new Set(COMMAND_OPTIONS.run.map(flagName))
  const given = Object.entries(typed).filter(([name]) => runFlags.has(name) && !OWN_RUN_FLAGS.has(name))
  return [
    '--profile', values.profile, '--scenarios', values.scenarios.join(','),
    ...(values.measure === RUN_MEASURE ? [] : ['--measure', values.measure]),
    ...given.flatMap(([name, text]) => text === true ? [name] : [name, text])
  ]
}

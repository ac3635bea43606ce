// @ts-check
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { countCommit } from '../../history/bisect/count-commit.js'
import { firstStep } from '../../history/bisect/first-step.js'
import { DynoError } from '../../platform/errors.js'
import { REPO_ROOT } from '../../platform/paths.js'
import { countStep } from '../../judging/stats/count-step.js'
import { discoverSuts } from '../../subjects/suts/discover-suts.js'
import { makeDirectory } from '../../platform/util/checked-paths.js'
import { createWorktrees, resolveCommit } from '../../platform/util/git-worktrees.js'
import { checkedPathManifest } from '../../subjects/variants/resolve-variant.js'
import { runBenchmarks } from '../runs/run-benchmarks.js'
import { SCENARIOS } from '@dyno/scenarios'
import { oneOf } from '../../platform/options/option-parsers.js'
import { DEFAULT_RUNTIME, RUNTIME_NAMES } from '../../subjects/runtimes/runtime-targets.js'
import {
  COUNT_REQUESTS_OPTION, COUNT_WARMUP_BOUND_OPTION, COUNT_WARMUP_OPTION, COUNT_WINDOWS_OPTION, NO_COUNT_CACHE_OPTION
} from '../../measures/instructions/instructions-options.js'
import { parseOptions } from '../cli/parse-command-line.js'
import { RUN_OPTIONS } from '../cli/option-table.js'
import { THRESHOLD } from '../options/compare-options.js'
import { CACHE_DIR, OUT, READY_TIMEOUT } from '../options/output-options.js'

const run = promisify(execFile)
/** The options of a bisection that are not `dyno run`'s, or that it sets itself for each count. */
const OWN_FLAGS = new Set(['--scenario', '--threshold'])

/**
 * `dyno bisect SUT CHECKOUT GOOD BAD`: the first commit between GOOD and BAD of a framework's git checkout whose count steps against
 * GOOD's by more than the threshold (and beyond the pair's own window spread), found by bisection, each commit counted as the SUT's
 * `path:` variant in a worktree of its own. Counts are kept in the count cache: a bisection run again counts nothing it counted.
 * Exit code: 0 with the first commit named; 1 (DYNO_ERR_BISECT) when BAD does not step or a commit cannot be counted; 2 for a bad
 * option, checkout or ref.
 * @param {{ sut: string, checkout: string, good: string, bad: string }} target as typed
 * @param {import('../cli/parse-command-line.js').ParsedOptions} parsed the options of `dyno bisect`
 * @param {import('../cli/io.js').Io} io @param {AbortSignal} signal
 * @param {(typed: Record<string, string | true>) => import('../cli/parse-command-line.js').ParsedOptions} parseRunOptions
 * @returns {Promise<number>}
 */
export async function bisectCommand ({ sut: sutName, checkout, good, bad }, parsed, io, signal, parseRunOptions) {
  const options = parsed.values
  const sut = discoverSuts().find((candidate) => candidate.name === sutName)
  if (!sut) {
    throw new DynoError('DYNO_ERR_UNKNOWN_FRAMEWORK', `\`${sutName}\` is not a SUT; valid: ` +
    `${discoverSuts().map((one) => one.name).join(', ')}`)
  }
  const dir = resolve(process.env.INIT_CWD || process.cwd(), checkout)
  checkedPathManifest(`${sutName}@path:${checkout}`, sut.framework, checkout, dir)
  const [from, to] = [await resolveCommit(dir, good, 'GOOD'), await resolveCommit(dir, bad, 'BAD')]
  try {
    await run('git', ['merge-base', '--is-ancestor', from.commit, to.commit], { cwd: dir })
  } catch {
    throw new DynoError('DYNO_ERR_BISECT', `GOOD \`${good}\` (${from.commit.slice(0, 12)}) is not an ancestor of BAD \`${bad}\` ` +
      `(${to.commit.slice(0, 12)}) in ${dir}: there is no line of commits between them to search`)
  }
  const { stdout } = await run('git', ['rev-list', '--reverse', '--ancestry-path', `${from.commit}..${to.commit}`], { cwd: dir })
  const commits = stdout.trim().split('\n').filter(Boolean)
  const subject = async (/** @type {string} */ commit) =>
    (await run('git', ['log', '-1', '--format=%s', commit], { cwd: dir })).stdout.trim()

  // A worktree per commit under the cache directory, named by the checkout and the commit: the same path every time.
  const cacheDir = resolve(REPO_ROOT, options.cacheDir)
  const root = join(cacheDir, 'bisect', createHash('sha256').update(dir).digest('hex').slice(0, 16))
  makeDirectory(root)
  const worktrees = createWorktrees(dir, { root })
  const forwarded = Object.fromEntries(Object.entries(parsed.typed).filter(([flag]) => !OWN_FLAGS.has(flag)))
  const count = async (/** @type {string} */ entry) => {
    const runOptions = parseRunOptions({
      ...forwarded, '--measure': 'instructions', '--frameworks': entry, '--scenarios': options.scenario, '--runtime': options.runtime
    })
    const outcome = await runBenchmarks(runOptions.values, { stdout: io.stderr, stderr: io.stderr }, signal, runOptions.planFields)
    if (signal.aborted) {
      throw new DynoError('DYNO_ERR_INTERRUPTED', `interrupted while counting ${entry}; what was counted is in ` +
      `${outcome.runDir}`)
    }
    return outcome
  }
  try {
    io.stderr.write(`dyno bisect: ${commits.length} commits after ${from.commit.slice(0, 12)} up to ${to.commit.slice(0, 12)}, ` +
      `${options.scenario} on ${options.runtime}: at most ${Math.ceil(Math.log2(commits.length + 1)) + 1} more counts\n`)
    const base = await countCommit({ commit: from.commit, worktrees, sut: sutName, count })
    const judge = async (/** @type {string} */ commit) => {
      const counted = await countCommit({ commit, worktrees, sut: sutName, count })
      const verdict = countStep(base.windows, counted.windows, { givenPercent: options.thresholdPercent })
      io.stdout.write(`${commit.slice(0, 12)}  ${verdict.changePct > 0 ? '+' : ''}${verdict.changePct}% (${verdict.intervalPct[0]}% to ` +
        `${verdict.intervalPct[1]}%, threshold ±${verdict.thresholdPct}%)  ${verdict.steps ? 'steps' : 'no step'}  ` +
          `${await subject(commit)}\n`)
      return verdict
    }
    const last = await judge(to.commit)
    if (!last.steps) {
      throw new DynoError('DYNO_ERR_BISECT', `BAD \`${bad}\` does not step against GOOD \`${good}\`: ${last.changePct > 0 ? '+' : ''}` +
        `${last.changePct}% (${last.intervalPct[0]}% to ${last.intervalPct[1]}%), within ±${last.thresholdPct}%; nothing to search`)
    }
    const { first, tested } = await firstStep(commits.slice(0, -1).concat(to.commit), async (commit) =>
      commit === to.commit ? last : judge(commit))
    const verdict = [...tested, { ...last, commit: to.commit }].find((one) => one.commit === first)
    io.stdout.write(`first step: ${first} ${await subject(first)}: ${verdict && verdict.changePct > 0 ? '+' : ''}${verdict?.changePct}% ` +
      `(${verdict?.intervalPct[0]}% to ${verdict?.intervalPct[1]}%) program instructions per request against ` +
        `${from.commit.slice(0, 12)}, ` +
      `${tested.length + 2} commits counted\n`)
    return 0
  } finally {
    const problems = await worktrees.removeAll()
    for (const problem of problems) io.stderr.write(`dyno bisect: ${problem}\n`)
  }
}

/** @type {import('../cli/command.js').Command} */
export const BISECT_COMMAND = {
  name: 'bisect',
  args: ['<sut>', '<checkout>', '<good>', '<bad>'],
  summary: 'Find the first commit between two refs of a framework\'s git checkout whose instruction count steps against the good one\'s ' +
    '(beyond --threshold and the counts\' own spread), by bisection: each commit judged is checked out into a worktree and counted as ' +
    'the SUT\'s `path:` variant, its count kept in the count cache',
  // A bisection counts one scenario on one runtime at each commit it judges, with the count's options of `dyno run`; a commit steps when
  // its change against the good commit passes `--threshold` (and the pair's own window spread).
  options: [
    { ...THRESHOLD, description: 'Smallest change against the good commit\'s count, in percent, that counts as a step' },
    {
      field: 'scenario',
      flag: '--scenario <name>',
      description: 'The scenario counted at each commit',
      parse: oneOf(SCENARIOS.map((scenario) => scenario.name)),
      default: 'json'
    },
    {
      field: 'runtime',
      flag: '--runtime <name>',
      description: `The runtime the SUT is counted on: ${RUNTIME_NAMES.join(', ')}`,
      parse: oneOf(RUNTIME_NAMES),
      default: DEFAULT_RUNTIME
    },
    COUNT_WARMUP_OPTION, COUNT_WARMUP_BOUND_OPTION, COUNT_REQUESTS_OPTION, COUNT_WINDOWS_OPTION, NO_COUNT_CACHE_OPTION, OUT, CACHE_DIR,
    READY_TIMEOUT
  ],
  run: ({ positionals: [sut, checkout, good, bad], options }, io, signal) =>
    bisectCommand({ sut, checkout, good, bad }, options, io, signal, (typed) => parseOptions(RUN_OPTIONS, typed))
}

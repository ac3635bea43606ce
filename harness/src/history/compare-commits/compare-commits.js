// @ts-check
// compare-commits: both commits checked out side by side, installed, and benchmarked in alternating
// rounds on the same machine, so that whatever drifts during the session (thermal state, other load,
// caches) reaches both commits alike; then compared like any two runs. Instruction counts do not depend
// on what runs beside them: by instructions, both sides of a round are counted at once, the count jobs
// shared between them, so that neither side waits for the other's last count.
import { COMPARE_COMMITS_INDEX } from '../../records/run-layout.js'
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { promisify } from 'node:util'
import { dirname, join } from 'node:path'
import { DynoError } from '../../platform/errors.js'
import { runChild } from '../../platform/process/child-command.js'
import { dynoCheckouts } from './checkouts.js'
import { writeJsonAtomic } from '../../records/write-json-atomic.js'
import { makeDirectory } from '../../platform/util/checked-paths.js'
import { createWorktrees, resolveCommit } from '../../platform/util/git-worktrees.js'

/**
 * @typedef {'base' | 'head'} Side
 * @typedef {object} CompareCommitsPlan
 * @property {string} repoDir the repository the refs belong to (dyno's own, unless `checkouts` says otherwise)
 * @property {import('./checkouts.js').Checkouts} [checkouts] what is checked out, installed and run for each side; dyno's commits of
 *   repoDir unless given
 * @property {string} baseRef
 * @property {string} headRef
 * @property {string[]} runArgs `dyno run` options for every round (without --repeats, --out and --count-jobs)
 * @property {{ total: number, given: boolean } | null} [countJobs] by instructions: the counts made at once, over both sides, and
 *   whether the user gave the number; null: wall clock, one side at a time
 * @property {string[] | null} frameworks the selected SUTs (installs only them), null: all
 * @property {number} rounds pairs of runs
 * @property {import('./split-comparison.js').RunSubset[] | null} [subsets] a part of a split comparison: each round's `dyno run` of a side
 *   is one run per subset, with its `--frameworks` and `--scenarios`; null: one run of everything runArgs names
 * @property {Record<string, unknown>} [record] what compare-commits.json records besides the commits and the progress (the plan, the
 *   measure, the options)
 * @property {string} resultsDir receives `base/<runId>/` and `head/<runId>/` of every round
 * @property {AbortSignal} signal
 * @property {(event: { stage: string, side?: Side, round?: number, line?: string }) => void} [onProgress]
 */

/**
 * @param {CompareCommitsPlan} plan
 * @returns {Promise<{ base: { ref: string, commit: string, subject: string }, head: { ref: string, commit: string, subject: string },
 *   order: { round: number, side: Side, exitCode: number | null }[], resultsDir: string, installSec: number, runSec: number }>}
 */
export async function compareCommits (plan) {
  const { signal, onProgress = () => {} } = plan
  const checkouts = plan.checkouts ?? dynoCheckouts(plan.repoDir)
  const repoDir = checkouts.repoDir
  const base = await resolveCommit(repoDir, plan.baseRef, 'BASE_REF')
  const head = await resolveCommit(repoDir, plan.headRef, 'HEAD_REF')
  const worktrees = createWorktrees(repoDir)
  /** @type {{ round: number, side: Side, exitCode: number | null }[]} */
  const order = []
  const index = {
    schemaVersion: 1,
    ...plan.record,
    base,
    head,
    rounds: plan.rounds,
    startedAt: new Date().toISOString(),
    finishedAt: /** @type {string | null} */ (null),
    status: 'running',
    order
  }
  makeDirectory(plan.resultsDir)
  writeJsonAtomic(join(plan.resultsDir, COMPARE_COMMITS_INDEX), index)
  try {
    const installStarted = performance.now()
    /** @type {Record<Side, string>} */
    const dirs = { base: '', head: '' }
    for (const [side, commit] of /** @type {[Side, string][]} */ ([['base', base.commit], ['head', head.commit]])) {
      onProgress({ stage: `checking out ${commit.slice(0, 12)}`, side })
      dirs[side] = await worktrees.add(side, commit)
      onProgress({ stage: 'installing', side })
      await checkouts.install(dirs[side], plan, side)
    }
    const installSec = (performance.now() - installStarted) / 1000

    const runStarted = performance.now()
    const countJobs = plan.countJobs ?? null
    const together =
      countJobs !== null && countJobs.total >= 2 &&
        (await Promise.all([dirs.base, dirs.head].map((dir) => knowsCountJobs(checkouts.cli(dir))))).every(Boolean)
    for (let round = 1; round <= plan.rounds && !signal.aborted; round++) {
      // Alternating which side goes first (AB, BA, AB, …) cancels a steady drift instead of handing it to one side.
      const sides = /** @type {Side[]} */ (round % 2 === 1 ? ['base', 'head'] : ['head', 'base'])
      const runSide = async (/** @type {Side} */ side, /** @type {string[]} */ extraArgs) => {
        onProgress({ stage: 'running', side, round })
        const exitCode = await runRound(
          { cli: checkouts.cli(dirs[side]), dir: dirs[side] },
          join(plan.resultsDir, side),
          { ...plan, runArgs: [...plan.runArgs, ...checkouts.runArgs(dirs[side]), ...extraArgs] },
          side,
          round
        )
        order.push({ round, side, exitCode })
      }
      if (together && countJobs) {
        const total = countJobs.total
        const settled = await Promise.allSettled(sides.map((side, index) =>
          runSide(side, ['--count-jobs', String(index === 0 ? Math.ceil(total / 2) : Math.floor(total / 2))])))
        const failure = settled.find((outcome) => outcome.status === 'rejected')
        if (failure) throw /** @type {PromiseRejectedResult} */ (failure).reason
        continue
      }
      for (const side of sides) {
        if (signal.aborted) break
        await runSide(side, countJobs?.given ? ['--count-jobs', String(countJobs.total)] : [])
      }
    }
    index.status = signal.aborted ? 'interrupted' : 'complete'
    if (signal.aborted) {
      throw new DynoError('DYNO_ERR_INTERRUPTED',
        `compare-commits interrupted after ${order.length} of ${plan.rounds * 2} runs; what they measured is kept in ${plan.resultsDir}`)
    }
    return { base, head, order, resultsDir: plan.resultsDir, installSec, runSec: (performance.now() - runStarted) / 1000 }
  } finally {
    if (index.status === 'running') index.status = 'interrupted'
    index.finishedAt = new Date().toISOString()
    writeJsonAtomic(join(plan.resultsDir, COMPARE_COMMITS_INDEX), index)
    onProgress({ stage: 'removing the worktrees' })
    const problems = await worktrees.removeAll()
    for (const problem of problems) onProgress({ stage: 'cleanup problem', line: problem })
  }
}

/**
 * Whether a side's harness takes `--count-jobs` (a commit from before counts were made at once does not, and refuses it).
 * @param {string} cli the side's `harness/bin/dyno.js` @returns {Promise<boolean>}
 */
async function knowsCountJobs (cli) {
  if (!existsSync(cli)) return false
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [cli, 'run', '--help'], { cwd: dirname(cli), timeout: 60_000 })
    return stdout.includes('--count-jobs')
  } catch {
    return false
  }
}

/**
 * One `dyno run` of one side, with the side's own harness (or, for a service's commits, this one).
 * @param {{ cli: string, dir: string }} runner the dyno that runs it, and the side's checkout
 * @param {string} out @param {CompareCommitsPlan} plan @param {Side} side @param {number} round
 * @returns {Promise<number | null>} the exit code: 0 all ok, 1 some run not ok (kept and shown by the comparison)
 */
async function runRound ({ cli, dir }, out, plan, side, round) {
  if (!existsSync(cli)) throw new DynoError('DYNO_ERR_COMPARE_RUN', `${side} has no harness/bin/dyno.js: the commit predates dyno's CLI`)
  makeDirectory(out)
  let worst = /** @type {number | null} */ (0)
  for (const subset of plan.subsets ?? [null]) {
    if (plan.signal.aborted) break
    const runArgs = subset ? withSubset(plan.runArgs, subset) : plan.runArgs
    const args = [cli, 'run', ...runArgs, '--repeats', '1', '--out', out]
    const outcome = await runChild(process.execPath, args, {
      cwd: dir, signal: plan.signal, onLine: (line) => plan.onProgress?.({ stage: 'running', side, round, line })
    })
    if (plan.signal.aborted) return outcome.code
    if (outcome.code !== 0 && outcome.code !== 1) {
      throw new DynoError('DYNO_ERR_COMPARE_RUN',
        `dyno run of ${side} (round ${round}) exited ${outcome.code ?? outcome.signal}; its last lines:\n${outcome.tail.join('\n')}`)
    }
    worst = Math.max(worst ?? 0, outcome.code)
  }
  return worst
}

/**
 * A round's `dyno run` options with the SUTs and scenarios of one subset of a part in place of the whole comparison's.
 * @param {string[]} runArgs as forwarded, each option its own flag and value
 * @param {import('./split-comparison.js').RunSubset} subset
 * @returns {string[]}
 */
function withSubset (runArgs, subset) {
  const kept = []
  for (let at = 0; at < runArgs.length; at++) {
    if (runArgs[at] === '--frameworks' || runArgs[at] === '--scenarios') at++
    else kept.push(runArgs[at])
  }
  return [...kept, '--frameworks', subset.frameworks.join(','), '--scenarios', subset.scenarios.join(',')]
}

// @ts-check
// One commit of a framework's checkout, counted: checked out into a worktree at a path that is the same every time (so that a
// bisection run again finds its counts in the count cache: a `path:` variant is keyed by its directory and what it would
// publish), run as the SUT's `path:` variant by `dyno run --measure instructions`, and its windows read back.
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { DynoError } from '../../platform/errors.js'
import { readRun } from '../../records/read-run.js'

/**
 * @typedef {object} CommitCount
 * @property {string} runDir
 * @property {number[]} windows program instructions per request of each counted window
 * @property {number} programInstructionsPerRequest
 */

/**
 * @param {{ commit: string, worktrees: import('../../platform/util/git-worktrees.js').Worktrees, sut: string,
 *   count: (frameworkEntry: string) => Promise<{ exitCode: number, runDir: string }> }} plan count: the run of one variant (the
 *   command's `dyno run`)
 * @returns {Promise<CommitCount>}
 * @throws {DynoError} DYNO_ERR_BISECT when the commit could not be counted, naming it and why
 */
export async function countCommit ({ commit, worktrees, sut, count }) {
  const dir = join(worktrees.root, commit)
  if (existsSync(dir)) rmSync(dir, { recursive: true, force: true })
  await worktrees.add(commit, commit)
  const outcome = await count(`${sut}@path:${dir}`)
  const [record] = readRun(outcome.runDir).records
  const windows = (record?.instructions?.windows ?? []).map(
    (window) => window.programInstructionsPerRequest ?? window.instructionsPerRequest
  )
  if (!record || record.status !== 'ok' || windows.length === 0) {
    throw new DynoError('DYNO_ERR_BISECT', `commit ${commit.slice(0, 12)} could not be counted (${record?.status ?? 'no result'}: ` +
      `${record?.reason ?? 'the run wrote none'}); its run: ${outcome.runDir}`)
  }
  return {
    runDir: outcome.runDir,
    windows,
    programInstructionsPerRequest: Number(record.instructions?.programInstructionsPerRequest ?? record.instructions?.instructionsPerRequest)
  }
}

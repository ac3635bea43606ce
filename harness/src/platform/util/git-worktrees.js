// @ts-check
// Commits checked out into worktrees of their own (the repository's own checkout is never touched), and removed again
// whatever happens: the two commits of compare-commits, the commits a bisection counts.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { DynoError } from '../errors.js'

const execFileAsync = promisify(execFile)

/**
 * @param {string} repoDir
 * @param {string[]} args
 * @returns {Promise<string>} stdout, trimmed
 */
async function git (repoDir, args) {
  const { stdout } = await execFileAsync('git', args, { cwd: repoDir, maxBuffer: 16 * 2 ** 20 })
  return stdout.trim()
}

/**
 * The commit a ref names.
 * @param {string} repoDir
 * @param {string} ref
 * @param {string} role `BASE_REF` / `HEAD_REF`, for the message
 * @returns {Promise<{ ref: string, commit: string, subject: string }>}
 * @throws {DynoError} DYNO_ERR_GIT_REF when git does not know it
 */
export async function resolveCommit (repoDir, ref, role) {
  try {
    const commit = await git(repoDir, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])
    const subject = await git(repoDir, ['log', '-1', '--format=%s', commit])
    return { ref, commit, subject }
  } catch (error) {
    throw new DynoError('DYNO_ERR_GIT_REF', `${role} \`${ref}\` is not a commit of the repository at ${repoDir} ` +
      '(a branch, tag or commit id that `git rev-parse` resolves; fetch it first when it is remote)', { cause: error })
  }
}

/**
 * @typedef {object} Worktrees
 * @property {string} root the temporary directory holding them
 * @property {(name: string, commit: string) => Promise<string>} add checks `commit` out, detached, into `<root>/<name>`
 * @property {() => Promise<string[]>} removeAll removes every worktree added (git's bookkeeping too); returns problems, never throws
 */

/**
 * @param {string} repoDir
 * @param {{ root?: string }} [where] root: a directory of the caller's to hold them (kept; the worktrees in it are removed), so that a
 *   commit's worktree has the same path every time; none: a temporary directory, removed with them
 * @returns {Worktrees}
 */
export function createWorktrees (repoDir, { root: given } = {}) {
  const root = given ?? mkdtempSync(join(tmpdir(), 'dyno-commits-'))
  /** @type {string[]} */
  const added = []
  return {
    root,
    add: async (name, commit) => {
      const dir = join(root, name)
      try {
        await git(repoDir, ['worktree', 'add', '--detach', '--force', dir, commit])
      } catch (error) {
        throw new DynoError('DYNO_ERR_GIT_WORKTREE', `could not check ${commit} out into ${dir}: ${/** @type {Error} */ (error).message}`, {
          cause: error
        })
      }
      added.push(dir)
      return dir
    },
    removeAll: async () => {
      const problems = []
      for (const dir of added.splice(0)) {
        try {
          await git(repoDir, ['worktree', 'remove', '--force', '--force', dir])
        } catch (error) {
          problems.push(`git worktree remove ${dir}: ${/** @type {Error} */ (error).message}`)
        }
      }
      if (!given) rmSync(root, { recursive: true, force: true })
      try {
        await git(repoDir, ['worktree', 'prune'])
      } catch (error) {
        problems.push(`git worktree prune: ${/** @type {Error} */ (error).message}`)
      }
      return problems
    }
  }
}

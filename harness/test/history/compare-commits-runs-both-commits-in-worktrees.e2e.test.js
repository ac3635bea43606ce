// @ts-check
// compare-commits on a small temporary git repository (this project's committed tree, two commits):
// both commits checked out into worktrees, installed, run in alternating rounds, compared; and the
// worktrees gone afterwards, after a failure too.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { compareCommits } from '../../src/history/compare-commits/compare-commits.js'
import { compareRuns } from '../../src/reports/compare/compare-runs.js'
import { REPO_ROOT } from '../../src/platform/paths.js'
import { processesOfRuns } from '../support/leftover-processes.js'
import { missing, skipNote } from '../support/needs.js'
import { runCli } from '../support/run-cli.js'
import { writtenIndex } from '../support/written-run.js'

// This file's own temporary directory: what it checks is left behind is its compare-commits' alone, not that of a journey beside it
// (the workflows' bench.yml makes checkouts of its own at the same time).
process.env.TMPDIR = mkdtempSync(join(tmpdir(), 'dyno-compare-commits-test-'))
/** @type {string[]} */
const temporaryDirs = [tmpdir()]
afterAll(() => { for (const dir of temporaryDirs) rmSync(dir, { recursive: true, force: true }) })

/** @param {string} cwd @param {string[]} args */
const git = (cwd, args) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim()

/**
 * A fresh repository holding this project's committed tree as its first commit.
 * @returns {{ dir: string, base: string }}
 */
function temporaryRepository () {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-repo-'))
  temporaryDirs.push(dir)
  execFileSync('sh', ['-c', `git -C "${REPO_ROOT}" archive HEAD | tar -x -C "${dir}"`])
  git(dir, ['init', '-q', '-b', 'main'])
  git(dir, ['-c', 'user.name=dyno test', '-c', 'user.email=test@dyno.invalid', 'add', '-A'])
  git(dir, ['-c', 'user.name=dyno test', '-c', 'user.email=test@dyno.invalid', 'commit', '-q', '-m', 'base'])
  return { dir, base: git(dir, ['rev-parse', 'HEAD']) }
}

/** @param {string} prefix */
function temporaryDir (prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  temporaryDirs.push(dir)
  return dir
}

/** @param {string} dir @param {string} message */
function commitAll (dir, message) {
  git(dir, ['-c', 'user.name=dyno test', '-c', 'user.email=test@dyno.invalid', 'commit', '-q', '-a', '-m', message])
  return git(dir, ['rev-parse', 'HEAD'])
}

/** @param {string} dir @returns {string[]} */
const worktreePaths = (dir) =>
  git(dir, ['worktree', 'list', '--porcelain'])
    .split('\n')
    .filter((line) => line.startsWith('worktree '))
    .map((line) => line.slice('worktree '.length))

/** @param {string} dir */
const worktreeCount = (dir) => worktreePaths(dir).length

const noSignal = new AbortController().signal

describe('compare-commits', () => {
  it('runs base and head alternately from their own worktrees, compares them, and removes the worktrees', async () => {
    const repo = temporaryRepository()
    const readme = join(repo.dir, 'packages', 'node-http', 'README.md')
    writeFileSync(readme, readFileSync(readme, 'utf8') + '\nA change only the head commit has.\n')
    const head = commitAll(repo.dir, 'head')
    const resultsDir = join(temporaryDir('dyno-commits-results-'), 'compare')
    /** @type {string[]} */
    const stages = []
    const outcome = await compareCommits({
      repoDir: repo.dir,
      baseRef: 'HEAD~1',
      headRef: 'main',
      runArgs: [
        '--frameworks',
        'node-http',
        '--scenarios',
        'json',
        '--duration',
        '0.5',
        '--warmup',
        '0',
        '--connections',
        '10',
        '--engine',
        'autocannon',
        // What is checked is the worktrees and the alternation, not the figures: a round beside the next test file is not measured again.
        '--disturbed-above',
        '99'
      ],
      frameworks: ['node-http'],
      rounds: 2,
      resultsDir,
      signal: noSignal,
      onProgress: ({ stage, side, round }) => {
        if (!stages.at(-1)?.startsWith(`${stage} ${side} ${round}`)) stages.push(`${stage} ${side} ${round}`)
      }
    })
    expect(outcome.base.commit).toBe(repo.base)
    expect(outcome.head).toMatchObject({ ref: 'main', commit: head, subject: 'head' })
    // A B, then B A: alternating which side goes first.
    expect(outcome.order).toEqual([
      { round: 1, side: 'base', exitCode: 0 }, { round: 1, side: 'head', exitCode: 0 },
      { round: 2, side: 'head', exitCode: 0 }, { round: 2, side: 'base', exitCode: 0 }
    ])
    expect(stages).toContain('installing base undefined')
    // Each side's runs were made by that side's harness, from its commit.
    const runDirs = (/** @type {string} */ side) => readdirSync(join(resultsDir, side)).map((name) => join(resultsDir, side, name))
    for (const [side, commit] of [['base', repo.base], ['head', head]]) {
      expect(runDirs(side)).toHaveLength(2)
      for (const dir of runDirs(side)) {
        const index = writtenIndex(dir)
        expect(index.env.git.commit, `${side} ran at its own commit`).toBe(commit)
        expect(index.results.map((/** @type {{ status: string }} */ entry) => entry.status)).toEqual(['ok'])
      }
    }
    // As the command compares them: each round's two runs are a pair (too few here for either test).
    const comparison = compareRuns([join(resultsDir, 'base')], [join(resultsDir, 'head')], { thresholdPercent: null, paired: true })
    expect(comparison.rows.map((row) => [row.sut, row.scenario, row.connections, row.status])).toEqual([
      ['node-http', 'json', 10, 'too-few-repeats']
    ])
    expect(comparison.rows[0].notes).toContain('compared as independent samples (Mann–Whitney U), not paired: ' +
      '2 pairs cannot reach p < 0.05 in the signed-rank test (its smallest p is 0.5; 6 pairs are needed)')
    // Nothing left behind: no worktree, no temporary checkout, no process of the rounds.
    expect(worktreeCount(repo.dir)).toBe(1)
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith('dyno-commits-') && existsSync(join(tmpdir(), name, 'base')))).toEqual([])
    const runIds = ['base', 'head'].flatMap((side) => readdirSync(join(resultsDir, side)))
    expect(processesOfRuns(runIds)).toEqual([])
  }, 240_000)

  const noValgrind = missing('valgrind')
  it.skipIf(noValgrind)(
    `counts both sides of a round at once by instructions, the count jobs shared between them${skipNote(noValgrind)}`,
    async () => {
      const repo = temporaryRepository()
      const readme = join(repo.dir, 'packages', 'node-http', 'README.md')
      writeFileSync(readme, readFileSync(readme, 'utf8') + '\nA change only the head commit has.\n')
      commitAll(repo.dir, 'head')
      const resultsDir = join(temporaryDir('dyno-commits-results-'), 'compare')
      const outcome = await compareCommits({
        repoDir: repo.dir,
        baseRef: 'HEAD~1',
        headRef: 'main',
        runArgs: [
          '--frameworks',
          'node-http',
          '--scenarios',
          'json',
          '--measure',
          'instructions',
          '--count-warmup',
          '200',
          // A fixed warm-up (the bound equal to it): this is about where and when the counts run, not when they settle.
          '--count-warmup-bound',
          '200',
          '--count-requests',
          '40',
          '--count-windows',
          '6',
          '--no-count-cache'
        ],
        countJobs: { total: 2, given: false },
        frameworks: ['node-http'],
        rounds: 1,
        resultsDir,
        signal: noSignal
      })
      expect(outcome.order.map(({ side, exitCode }) => [side, exitCode]).sort()).toEqual([
        ['base', 0],
        ['head', 0]
      ])
      const indexOf = (/** @type {string} */ side) => {
        const [runId] = readdirSync(join(resultsDir, side))
        return writtenIndex(join(resultsDir, side, runId))
      }
      const [base, head] = [indexOf('base'), indexOf('head')]
      for (const index of [base, head]) {
        expect(index.options.countJobs, 'each side makes one count at a time: two in all, one per cpu').toBe(1)
        expect(index.results.map((/** @type {{ status: string }} */ entry) => entry.status)).toEqual(['ok'])
      }
      // At once: each side's run started before the other's ended.
      const span = (/** @type {{ startedAt: string, finishedAt: string }} */ index) => [
        Date.parse(index.startedAt),
        Date.parse(index.finishedAt)
      ]
      const [[baseStart, baseEnd], [headStart, headEnd]] = [span(base), span(head)]
      expect(baseStart).toBeLessThan(headEnd)
      expect(headStart).toBeLessThan(baseEnd)
      expect(worktreeCount(repo.dir)).toBe(1)
    },
    240_000
  )

  it('removes the worktrees when a commit cannot be installed, and says which and why', async () => {
    const repo = temporaryRepository()
    const manifest = join(repo.dir, 'packages', 'node-http', 'package.json')
    writeFileSync(manifest, readFileSync(manifest, 'utf8')
      .replace('"@dyno/scenarios": "workspace:*"', '"@dyno/scenarios": "workspace:*",\n    "left-pad": "1.3.0"'))
    commitAll(repo.dir, 'a dependency the lockfile does not have')
    const attempt = compareCommits({
      repoDir: repo.dir,
      baseRef: 'HEAD~1',
      headRef: 'HEAD',
      runArgs: ['--frameworks', 'node-http', '--scenarios', 'json', '--duration', '0.5'],
      frameworks: ['node-http'],
      rounds: 1,
      resultsDir: join(temporaryDir('dyno-commits-results-'), 'compare'),
      signal: noSignal
    })
    await expect(attempt).rejects.toMatchObject({
      code: 'DYNO_ERR_COMPARE_INSTALL',
      message: expect.stringMatching(/failed for head .*\n[\s\S]*lockfile/)
    })
    expect(worktreeCount(repo.dir)).toBe(1)
  }, 240_000)

  it('names a ref git cannot resolve and exits 2 before checking anything out', async () => {
    // This checkout's worktrees are a contributor's, and another test file may be adding its own beside this one (the workflows'
    // bench part): so the command gets a temporary directory of its own, and no worktree may appear in it, nor in git's list.
    const itsTmp = temporaryDir('dyno-ref-tmp-')
    const { code, stderr } = await runCli(['compare-commits', 'no-such-branch-dyno', 'HEAD', '--frameworks', 'node-http'],
      { env: { ...process.env, TMPDIR: itsTmp } })
    expect(code).toBe(2)
    expect(stderr).toMatch(/DYNO_ERR_GIT_REF: BASE_REF `no-such-branch-dyno` is not a commit of the repository/)
    expect(readdirSync(itsTmp)).toEqual([])
    expect(worktreePaths(REPO_ROOT).filter((path) => path.startsWith(itsTmp))).toEqual([])
  })

  it('rejects a bad run option at the boundary, naming it', async () => {
    const { code, stderr } = await runCli(['compare-commits', 'HEAD', 'HEAD', '--duration', 'soon'])
    expect(code).toBe(2)
    expect(stderr).toMatch(/DYNO_ERR_INVALID_OPTION: .*--duration.*soon/)
  })
})

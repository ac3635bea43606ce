// @ts-check
// The action in a service's own repository, its script run here as a workflow runs it: compare-commits --app on the pull request's
// base and head, the verdict table (regressed rows first) in the job summary and as a comment on the pull request, and on the next
// push that comment replaced rather than another added. GitHub's CLI is a stand-in that records what it was asked and answers as
// the API would; the comparison is a short wall-clock one, since what is checked is where the table goes, not a verdict.
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { spawn } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../src/platform/paths.js'
import { outputRead } from '../../src/platform/process/output-read.js'
import { trackRuns } from '../support/leftover-processes.js'
import { missing, skipNote } from '../support/needs.js'
import { shopRepository } from '../support/shop-repository.js'

trackRuns()
const absent = missing('postgres')
const work = mkdtempSync(join(tmpdir(), 'dyno-service-action-'))

/** @param {string} name @returns {string} a git repository holding the shop in two commits, in its folder `service` */
const pushedShop = (name) => shopRepository({
  repo: join(work, name),
  serviceDir: 'service',
  message: 'a readme',
  change: (service) => writeFileSync(join(service, 'README.md'), 'The shop.\n')
})

/**
 * A stand-in for GitHub's CLI: each call is appended to calls.jsonl with the body it would send; listing the comments answers with the
 * ids in comments.txt.
 * @returns {string} the directory to put first on PATH
 */
function fakeGh () {
  const bin = join(work, 'bin')
  const gh = join(bin, 'gh')
  cpSync(join(REPO_ROOT, 'harness', 'test', 'fixtures', 'fake-gh.js'), gh)
  chmodSync(gh, 0o755)
  return bin
}

/** @param {Record<string, string>} env @returns {Promise<{ code: number | null, stdout: string, stderr: string }>} */
function runScript (env) {
  return new Promise((resolve) => {
    const child = spawn('bash', [join(REPO_ROOT, '.github', 'scripts', 'app-compare.sh')], { env: { ...process.env, ...env } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => { stdout += chunk })
    child.stderr.on('data', (chunk) => { stderr += chunk })
    child.on('exit', async (code) => {
      await outputRead([child.stdout, child.stderr])
      resolve({ code, stdout, stderr })
    })
  })
}

describe.skipIf(absent)(`the action on a service's pull request${skipNote(absent)}`, () => {
  it('puts the verdict table in the job summary and in one comment, replaced on the next push', async () => {
    const repo = pushedShop('pushed')
    const bin = fakeGh()
    const summary = join(work, 'summary.md')
    const env = {
      PATH: `${bin}:${process.env.PATH}`,
      GITHUB_WORKSPACE: repo,
      GITHUB_STEP_SUMMARY: summary,
      APP: 'service',
      BASE_REF: 'HEAD~1',
      HEAD_REF: 'HEAD',
      MEASURE: 'wall-clock',
      SCENARIOS: 'quote',
      GH_TOKEN: 'not-a-real-token',
      GH_REPO: 'acme/shop',
      PR_NUMBER: '42',
      FAKE_GH_DIR: work,
      DYNO_SKIP_INSTALL: 'true',
      COMPARISON: join(work, 'comparison.md'),
      DYNO_ARGS: '--repeats 1 --duration 0.5 --warmup 0 --launch-warmup 0 --disturbed-above 99 --out ' + join(work, 'results')
    }
    const first = await runScript(env)
    expect(first.code, first.stderr).toBe(0)
    const table = readFileSync(join(work, 'comparison.md'), 'utf8')
    expect(table.startsWith('<!-- dyno compare -->\n## dyno compare')).toBe(true)
    expect(table).toMatch(/^\| shop \| quote \|/m)
    expect(readFileSync(summary, 'utf8')).toBe(table)
    const calls = () => readFileSync(join(work, 'calls.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line))
    expect(calls().map((call) => call.args.slice(0, 4).join(' '))).toEqual([
      'api repos/acme/shop/issues/42/comments --paginate --jq',
      'api --method POST repos/acme/shop/issues/42/comments'
    ])
    expect(calls()[1].body).toBe(table)

    writeFileSync(join(work, 'comments.txt'), '9001\n')
    const second = await runScript(env)
    expect(second.code, second.stderr).toBe(0)
    expect(calls().slice(2).map((call) => call.args.slice(0, 4).join(' '))).toEqual([
      'api repos/acme/shop/issues/42/comments --paginate --jq',
      'api --method PATCH repos/acme/shop/issues/comments/9001'
    ])
    expect(calls()[3].body).toBe(readFileSync(join(work, 'comparison.md'), 'utf8'))
  }, 240_000)

  it('comments nothing when the comparison came to no table, and says why in the log', async () => {
    const repo = pushedShop('unknown-base')
    const result = await runScript({
      PATH: `${fakeGh()}:${process.env.PATH}`,
      GITHUB_WORKSPACE: repo,
      APP: 'service',
      BASE_REF: 'no-such-ref',
      MEASURE: 'wall-clock',
      GH_TOKEN: 'not-a-real-token',
      GH_REPO: 'acme/shop',
      PR_NUMBER: '42',
      FAKE_GH_DIR: join(work, 'none'),
      DYNO_SKIP_INSTALL: 'true',
      COMPARISON: join(work, 'failed.md')
    })
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/DYNO_ERR_GIT_REF: BASE_REF `no-such-ref` is not a commit/)
    expect(existsSync(join(work, 'none', 'calls.jsonl'))).toBe(false)
  }, 60_000)
})

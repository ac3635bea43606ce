// @ts-check
// site.yml publishes what its last run kept: the restore step (.github/scripts/timeline-restore.sh) is run here as the workflow runs
// it, against a `gh` of the test's own on PATH that answers as GitHub's API would for a listing of site.yml's runs: the newest a
// pull request from a fork's `main` branch, then a run dispatched on another branch, then the repository's own scheduled run on its
// default branch. Only the last is restored; an artifact that holds a link, a stray file or a record dyno does not read back fails
// the step, and nothing of it is left to append to or publish.
import { spawn } from 'node:child_process'
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../src/platform/paths.js'

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'timeline-data')
const REPOSITORY = 'dyno-dev/dyno'
const work = mkdtempSync(join(tmpdir(), 'dyno-restore-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** A `gh` that answers from FAKE_GH (repository.json, runs.json, artifacts/<run id>/) and writes each call to FAKE_GH/calls. */
const FAKE_GH = `#!/usr/bin/env node
const { appendFileSync, cpSync, existsSync, readFileSync } = require('node:fs')
const { join } = require('node:path')
const dir = process.env.FAKE_GH
const args = process.argv.slice(2)
appendFileSync(join(dir, 'calls'), args.join(' ') + '\\n')
const runs = JSON.parse(readFileSync(join(dir, 'runs.json'), 'utf8'))
const option = (name) => args[args.indexOf(name) + 1]
if (args[0] === 'api' && /^repos\\/[^/]+\\/[^/]+$/.test(args[1])) {
  process.stdout.write(readFileSync(join(dir, 'repository.json'), 'utf8'))
} else if (args[0] === 'api' && args[1].includes('/actions/workflows/site.yml/runs?')) {
  const query = new URLSearchParams(args[1].split('?')[1])
  // As GitHub filters: by branch name and status only; the event and the repository a run came from are the caller's to check.
  const listed = runs.filter((run) => run.head_branch === query.get('branch') && run.conclusion === query.get('status'))
  process.stdout.write(JSON.stringify({ total_count: listed.length, workflow_runs: listed }))
} else if (args[0] === 'run' && args[1] === 'list') {
  const newest = runs.filter((run) => run.conclusion === option('--status'))[0]
  process.stdout.write(newest ? String(newest.id) + '\\n' : '')
} else if (args[0] === 'run' && args[1] === 'download') {
  const artifact = join(dir, 'artifacts', args[2])
  if (!existsSync(artifact)) { process.stderr.write('no artifact\\n'); process.exit(1) }
  cpSync(artifact, option('--dir'), { recursive: true, verbatimSymlinks: true })
} else {
  process.stderr.write('fake gh: unknown call ' + args.join(' ') + '\\n')
  process.exit(2)
}
`

/**
 * A run as GitHub's API lists it.
 * @param {number} id @param {string} event @param {string} branch @param {string} from the repository its head is in @param {string} at
 */
const listed = (id, event, branch, from, at) => ({
  id,
  event,
  head_branch: branch,
  conclusion: 'success',
  status: 'completed',
  created_at: at,
  repository: { full_name: REPOSITORY },
  head_repository: { full_name: from }
})

/** Newest first: a fork's pull request from its main, a dispatch on another branch, then the repository's own scheduled run. */
const RUNS = [
  listed(500, 'pull_request', 'main', 'mallory/dyno', '2026-11-30T10:00:00Z'),
  listed(400, 'workflow_dispatch', 'try-things', REPOSITORY, '2026-11-29T10:00:00Z'),
  listed(300, 'schedule', 'main', REPOSITORY, '2026-11-22T04:41:00Z'),
  listed(200, 'schedule', 'main', REPOSITORY, '2026-11-15T04:41:00Z')
]

let made = 0
/**
 * The fake gh's answers and the artifacts of runs 500 (the fork's: one record of its own beside the data), 400 and 300 (the data,
 * changed by `ours` when given).
 * @param {{ ours?: (artifact: string) => void, runs?: object[] }} [options]
 */
function github ({ ours, runs = RUNS } = {}) {
  const dir = join(work, `github-${++made}`)
  const bin = join(dir, 'bin')
  mkdirSync(bin, { recursive: true })
  writeFileSync(join(bin, 'gh'), FAKE_GH)
  chmodSync(join(bin, 'gh'), 0o755)
  writeFileSync(join(dir, 'repository.json'), JSON.stringify({ full_name: REPOSITORY, default_branch: 'main' }))
  writeFileSync(join(dir, 'runs.json'), JSON.stringify(runs))
  writeFileSync(join(dir, 'calls'), '')
  for (const id of [500, 400, 300]) cpSync(FIXTURE, join(dir, 'artifacts', String(id)), { recursive: true })
  writeFileSync(join(dir, 'artifacts', '500', 'records', 'f0f0f0f0f0f0f0f0f0f0f0f0.json'), '{"planted": "by a fork"}')
  writeFileSync(join(dir, 'artifacts', '400', 'records', 'e0e0e0e0e0e0e0e0e0e0e0e0.json'), '{"planted": "on a branch"}')
  ours?.(join(dir, 'artifacts', '300'))
  return dir
}

/**
 * The restore step as the publish job runs it: from the checkout, DATA relative to it, the fake gh first on PATH.
 * @param {string} fake @returns {Promise<{ code: number | null, out: string, data: string }>}
 */
function restore (fake) {
  const data = join(fake, 'timeline-data')
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [join('.github', 'scripts', 'timeline-restore.sh')], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        PATH: `${join(fake, 'bin')}:${process.env.PATH}`,
        FAKE_GH: fake,
        DATA: data,
        GITHUB_REPOSITORY: REPOSITORY,
        GH_TOKEN: 'x'
      },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let out = ''
    child.stdout.on('data', (chunk) => { out += chunk })
    child.stderr.on('data', (chunk) => { out += chunk })
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`timeline-restore.sh did not finish within 60 s:\n${out}`))
    }, 60_000)
    child.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, out, data })
    })
  })
}

/** @param {string} fake @returns {string[]} the runs whose artifact was downloaded */
const downloaded = (fake) => readFileSync(join(fake, 'calls'), 'utf8').split('\n').filter((line) => line.startsWith('run download'))
  .map((line) => line.split(' ')[2])

describe('the restore step of site.yml', () => {
  it('restores the repository\'s own last run on its default branch, never a fork\'s pull request or another branch\'s run', async () => {
    const fake = github()
    const { code, out, data } = await restore(fake)
    expect(code, out).toBe(0)
    expect(downloaded(fake)).toEqual(['300'])
    expect(readdirSync(join(data, 'records')).sort()).toEqual(readdirSync(join(FIXTURE, 'records')).sort())
    expect(out).toContain(`restored ${readdirSync(join(FIXTURE, 'records')).length} records from run 300 on main`)
  })

  it('starts empty when no run of its own succeeded, even when a fork\'s did', async () => {
    const fake = github({ runs: RUNS.slice(0, 2) })
    const { code, out, data } = await restore(fake)
    expect(code, out).toBe(0)
    expect(downloaded(fake)).toEqual([])
    expect(existsSync(data)).toBe(false)
    expect(out).toContain('no earlier successful run of site.yml on main: the data directory starts empty')
  })

  it.each([
    [
      'a symbolic link',
      (/** @type {string} */ artifact) => symlinkSync('/etc/passwd', join(artifact, 'records', 'a0a0a0a0a0a0a0a0a0a0a0a0.json')),
      /holds records\/a0a0a0a0a0a0a0a0a0a0a0a0\.json, a symbolic link/
    ],
    [
      'a file dyno does not write',
      (/** @type {string} */ artifact) => writeFileSync(join(artifact, 'index.html'), '<script>alert(1)</script>'),
      /holds index\.html, which dyno does not write there/
    ],
    [
      'a record dyno does not read back',
      (/** @type {string} */ artifact) => {
        const [name] = readdirSync(join(artifact, 'records'))
        const record = JSON.parse(readFileSync(join(artifact, 'records', name), 'utf8'))
        writeFileSync(join(artifact, 'records', name), JSON.stringify({ ...record, key: { ...record.key, release: '<img src=x>' } }))
      },
      /DYNO_ERR_DATASET: .*key\.release is "<img src=x>"[\s\S]*is not a data directory dyno reads back/
    ]
  ])('fails, leaving nothing to append to or publish, when the artifact holds %s', async (_, plant, says) => {
    const fake = github({ ours: plant })
    const { code, out, data } = await restore(fake)
    expect(code, out).toBe(1)
    expect(out).toMatch(says)
    expect(out).toContain('nothing is appended to it or published')
    expect(existsSync(data)).toBe(false)
  })
})

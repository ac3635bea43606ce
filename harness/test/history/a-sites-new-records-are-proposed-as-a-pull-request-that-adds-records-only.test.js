// @ts-check
// site.yml appends its counts to the repository's dataset by a pull request: the propose step (.github/scripts/timeline-propose.sh)
// is run here as the workflow runs it, in a clone of a repository of the test's own, with a `gh` on PATH that writes down what it
// is asked. It pushes a branch that adds the new records and nothing else and opens a pull request of it; a file that is not a
// record, a link, or a record held already with other content stops it before anything is committed, pushed or opened.
import { execFileSync, spawnSync } from 'node:child_process'
import {
  chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../src/platform/paths.js'
import { writeFunctionList } from '../../src/records/function-list-file.js'
import { BASELINE } from '../support/two-function-profiles.js'

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'timeline-data')
const RECORDS = readdirSync(join(FIXTURE, 'records')).sort()
const [HELD_A, HELD_B, NEW_A, NEW_B] = RECORDS
const RUN_ID = '777'
const work = mkdtempSync(join(tmpdir(), 'dyno-propose-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** @param {string} cwd @param {string[]} args */
const git = (cwd, ...args) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim()

let made = 0
/**
 * A repository whose main holds a dataset of two records, a clone of it as the workflow's checkout, a fake gh, and the new
 * records the publish job handed over (given as name → content, or a function that makes them).
 * @param {(dir: string) => void} offer writes NEW_RECORDS
 */
function repository (offer) {
  const dir = join(work, `case-${++made}`)
  const remote = join(dir, 'remote.git')
  const seed = join(dir, 'seed')
  const checkout = join(dir, 'checkout')
  mkdirSync(join(seed, 'data', 'timeline', 'records'), { recursive: true })
  git(dir, 'init', '--quiet', '--bare', '--initial-branch=main', remote)
  git(dir, 'init', '--quiet', '--initial-branch=main', seed)
  cpSync(join(FIXTURE, 'dataset.json'), join(seed, 'data', 'timeline', 'dataset.json'))
  for (const name of [HELD_A, HELD_B]) cpSync(join(FIXTURE, 'records', name), join(seed, 'data', 'timeline', 'records', name))
  git(seed, 'add', '.')
  git(seed, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '--quiet', '-m', 'dataset')
  git(seed, 'push', '--quiet', remote, 'main')
  git(dir, 'clone', '--quiet', remote, checkout)
  const bin = join(dir, 'bin')
  mkdirSync(bin)
  writeFileSync(join(bin, 'gh'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${join(dir, 'gh-calls')}'\n`)
  chmodSync(join(bin, 'gh'), 0o755)
  const offered = join(dir, 'new-records')
  mkdirSync(offered)
  offer(offered)
  const result = spawnSync('bash', [join(REPO_ROOT, '.github', 'scripts', 'timeline-propose.sh')], {
    cwd: checkout,
    encoding: 'utf8',
    timeout: 60_000,
    env: {
      ...process.env,
      PATH: `${bin}:${process.env.PATH}`,
      NEW_RECORDS: offered,
      DATA: 'data/timeline',
      BASE_BRANCH: 'main',
      GITHUB_RUN_ID: RUN_ID,
      GIT_CONFIG_GLOBAL: '/dev/null'
    }
  })
  const branches = git(remote, 'branch', '--format=%(refname:short)').split('\n')
  const ghCalls = existsSync(join(dir, 'gh-calls')) ? readFileSync(join(dir, 'gh-calls'), 'utf8').trim().split('\n') : []
  return { remote, result, output: result.stdout + result.stderr, branches, ghCalls }
}

/** @param {string} dir @param {string} name */
const fixtureRecord = (dir, name) => cpSync(join(FIXTURE, 'records', name), join(dir, name))

describe('the records a site.yml run appended, proposed to the repository', () => {
  it('pushes a branch that adds the new records and nothing else, and opens a pull request of it', () => {
    const { remote, result, output, branches, ghCalls } = repository((dir) => {
      for (const name of [NEW_A, NEW_B, HELD_A]) fixtureRecord(dir, name)
      writeFunctionList(join(dir, `${NEW_A}.gz`), BASELINE.functions)
    })
    expect(result.status, output).toBe(0)
    expect(output).toContain(`proposed 2 records (3 files) on timeline/records-${RUN_ID}`)
    expect(branches.sort()).toEqual(['main', `timeline/records-${RUN_ID}`])
    expect(git(remote, 'diff', '--name-status', 'main', `timeline/records-${RUN_ID}`).split('\n')).toEqual([
      `A\tdata/timeline/functions/${NEW_A}.gz`,
      `A\tdata/timeline/records/${NEW_A}`,
      `A\tdata/timeline/records/${NEW_B}`
    ])
    expect(git(remote, 'rev-list', '--count', `main..timeline/records-${RUN_ID}`)).toBe('1')
    expect(ghCalls).toHaveLength(1)
    expect(ghCalls[0]).toMatch(new RegExp(`^pr create --base main --head timeline/records-${RUN_ID} --title timeline: 2 records`))
  })

  it('proposes nothing when every record offered is held already, or none is', () => {
    for (const offer of [(/** @type {string} */ dir) => fixtureRecord(dir, HELD_B), () => {}]) {
      const { result, output, branches, ghCalls } = repository(offer)
      expect(result.status, output).toBe(0)
      expect(output).toContain('nothing to propose')
      expect(branches).toEqual(['main'])
      expect(ghCalls).toEqual([])
    }
  })

  const refused = [
    ['a file that is not a record', (/** @type {string} */ dir) => writeFileSync(join(dir, 'notes.txt'), 'hello'),
      /notes\.txt is not a record's name/],
    ['a workflow in disguise', (/** @type {string} */ dir) => {
      mkdirSync(join(dir, '.github'))
      writeFileSync(join(dir, '.github', 'x.yml'), 'on: push')
    }, /\.github is not a record's name/],
    ['a link named as a record', (/** @type {string} */ dir) => symlinkSync('/etc/passwd', join(dir, NEW_A)),
      new RegExp(`${NEW_A} is not a regular file`)],
    ['a function list without its record', (/** @type {string} */ dir) => writeFileSync(join(dir, `${'c'.repeat(24)}.json.gz`), 'x'),
      /c{24}\.json\.gz is the function list of no record offered with it/],
    ['a held record with other content', (/** @type {string} */ dir) => writeFileSync(join(dir, HELD_A), '{"rewritten": true}'),
      new RegExp(`${HELD_A} is held already with other content`)]
  ]
  it.each(refused)('refuses %s before anything is committed, pushed or opened', (_, offer, reason) => {
    const plant = /** @type {(dir: string) => void} */ (offer)
    const { result, output, branches, ghCalls } = repository((dir) => {
      fixtureRecord(dir, NEW_B)
      plant(dir)
    })
    expect(result.status, output).toBe(1)
    expect(output).toMatch(/** @type {RegExp} */ (reason))
    expect(output).toContain('nothing is proposed')
    expect(branches).toEqual(['main'])
    expect(ghCalls).toEqual([])
  })
})

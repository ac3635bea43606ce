// @ts-check
// A data directory kept in the repository is appended to by pull requests, some from forks: what such a change holds is data from
// elsewhere. Since its base it may only add record files under the directory's records/ and their function lists under functions/,
// each a regular file as git holds it, and the directory must then read back as any data directory does (schema, the record's id
// and counting id the hashes of what they name), each list as a list does.
// Each refusal names the path, exits 2 through the CLI, and nothing is appended. Real git repositories, made from the committed
// counts (test/fixtures/timeline-data).
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { checkAppendedRecords } from '../../src/history/timeline/appended-records.js'
import { idOf } from '../../src/history/timeline/timeline-dataset.js'
import { runCli } from '../support/run-cli.js'
import { writeFunctionList } from '../../src/records/function-list-file.js'
import { BASELINE } from '../support/two-function-profiles.js'

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'timeline-data')
const work = mkdtempSync(join(tmpdir(), 'dyno-fork-append-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

let made = 0
/**
 * A repository whose first commit holds the fixture as data/timeline, then one commit of what `change` does to it.
 * @param {(data: string, repo: string) => void} change @returns {{ repo: string, data: string }}
 */
function forkChange (change) {
  const repo = join(work, `repo-${++made}`)
  const data = join(repo, 'data', 'timeline')
  mkdirSync(join(repo, 'data'), { recursive: true })
  cpSync(FIXTURE, data, { recursive: true })
  writeFileSync(join(repo, 'README.md'), 'a repository\n')
  const git = (/** @type {string[]} */ args) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' })
  git(['init', '-q', '-b', 'main'])
  git(['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'empty'])
  git(['add', '-A'])
  git(['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'base'])
  git(['tag', 'base'])
  change(data, repo)
  git(['add', '-A'])
  git(['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'the fork\'s change'])
  return { repo, data }
}

/** @param {string} data @returns {any} a record of the fixture, parsed */
const aRecord = (data) => JSON.parse(readFileSync(join(data, 'records', readdirSync(join(data, 'records'))[0]), 'utf8'))

/** A new record as `dyno timeline` would write it: a release not held yet, its id the hash of its key. @param {string} data */
function newRecord (data) {
  const record = aRecord(data)
  const key = { ...record.key, release: '5.2.0' }
  return { ...record, key, id: idOf(key, record.status) }
}

describe('a change to the repository\'s data directory', () => {
  it('that adds records dyno would write passes, naming what it added', () => {
    const { repo, data } = forkChange((dir) => {
      const record = newRecord(dir)
      writeFileSync(join(dir, 'records', `${record.id}.json`), JSON.stringify(record, null, 2))
    })
    const { added, records } = checkAppendedRecords({ repoDir: repo, dataDir: data, baseRef: 'base' })
    expect(added).toHaveLength(1)
    expect(added[0]).toMatch(/^data\/timeline\/records\/[0-9a-f]{24}\.json$/)
    expect(records).toBe(readdirSync(join(FIXTURE, 'records')).length + 1)
  })

  it('that adds a record with its function list passes', () => {
    const { repo, data } = forkChange((dir) => {
      const record = newRecord(dir)
      writeFileSync(join(dir, 'records', `${record.id}.json`), JSON.stringify(record, null, 2))
      mkdirSync(join(dir, 'functions'))
      writeFunctionList(join(dir, 'functions', `${record.id}.json.gz`), BASELINE.functions)
    })
    expect(checkAppendedRecords({ repoDir: repo, dataDir: data, baseRef: 'base' }).added).toHaveLength(1)
  })

  it.each([
    ['a function list of no record it adds', (/** @type {string} */ data) => {
      mkdirSync(join(data, 'functions'))
      writeFunctionList(join(data, 'functions', `${aRecord(data).id}.json.gz`), BASELINE.functions)
    }, /functions\/[0-9a-f]{24}\.json\.gz is the function list of no record the change adds/],
    ['a function list that is not gzip', (/** @type {string} */ data) => {
      const record = newRecord(data)
      writeFileSync(join(data, 'records', `${record.id}.json`), JSON.stringify(record, null, 2))
      mkdirSync(join(data, 'functions'))
      writeFileSync(join(data, 'functions', `${record.id}.json.gz`), '{"listVersion":1,"functions":[]}')
    }, /data\/timeline\/functions\/[0-9a-f]{24}\.json\.gz is not gzip/],
    ['a function list that is a link', (/** @type {string} */ data) => {
      const record = newRecord(data)
      writeFileSync(join(data, 'records', `${record.id}.json`), JSON.stringify(record, null, 2))
      mkdirSync(join(data, 'functions'))
      symlinkSync('/etc/passwd', join(data, 'functions', `${record.id}.json.gz`))
    }, /functions\/[0-9a-f]{24}\.json\.gz is held by git with mode 120000/],
    ['a file outside the data directory',
      (/** @type {string} */ data, /** @type {string} */ repo) => writeFileSync(join(repo, 'README.md'), 'changed\n'),
      /README\.md is changed \(M\), and a change to the data may only add records under data\/timeline\/records\//],
    ['a workflow of its own', (/** @type {string} */ data, /** @type {string} */ repo) => {
      mkdirSync(join(repo, '.github', 'workflows'), { recursive: true })
      writeFileSync(join(repo, '.github', 'workflows', 'x.yml'), 'on: push\n')
    }, /\.github\/workflows\/x\.yml is changed \(A\)/],
    ['a record rewritten', (/** @type {string} */ data) => {
      const record = aRecord(data)
      writeFileSync(join(data, 'records', `${record.id}.json`), JSON.stringify({ ...record, reason: 'changed' }))
    }, /records\/[0-9a-f]{24}\.json is changed: a record or a list is never rewritten or removed, only added/],
    ['a record removed', (/** @type {string} */ data) => unlinkSync(join(data, 'records', readdirSync(join(data, 'records'))[0])),
      /records\/[0-9a-f]{24}\.json is removed/],
    ['dataset.json changed',
      (/** @type {string} */ data) => writeFileSync(join(data, 'dataset.json'), '{"layout":"dyno-timeline","layoutVersion":1}'),
      /data\/timeline\/dataset\.json is changed \(M\)/],
    ['a record that is a link to a file elsewhere',
      (/** @type {string} */ data) => symlinkSync('/etc/passwd', join(data, 'records', `${'a'.repeat(24)}.json`)),
      /records\/a{24}\.json is held by git with mode 120000, not as a regular file/],
    ['a record whose counting id is not its settings\' hash', (/** @type {string} */ data) => {
      const record = newRecord(data)
      const key = { ...record.key, counting: { ...record.key.counting, warmupRule: 'settle-1' } }
      const id = idOf(key, record.status)
      writeFileSync(join(data, 'records', `${id}.json`), JSON.stringify({ ...record, key, id }))
    }, /is not a record this dyno reads: key\.counting\.id is [0-9a-f]{12}, not the hash of the counting settings/],
    ['a record that does not match the schema', (/** @type {string} */ data) => {
      const record = newRecord(data)
      writeFileSync(join(data, 'records', `${record.id}.json`), JSON.stringify({ ...record, publishedAt: 12 }))
    }, /is not a record this dyno reads/],
    ['a record named by another id', (/** @type {string} */ data) => {
      const record = newRecord(data)
      writeFileSync(join(data, 'records', `${'b'.repeat(24)}.json`), JSON.stringify(record))
    }, /its id is not the hash of its key/]
  ])('that holds %s is refused, naming it', (_, change, says) => {
    const { repo, data } = forkChange(change)
    expect(() => checkAppendedRecords({ repoDir: repo, dataDir: data, baseRef: 'base' })).toThrow(says)
  })

  it('is refused through the CLI with exit 2 when its base is not a commit, or looks like an option', async () => {
    for (const base of ['no-such-commit-anywhere', '--output=/tmp/x']) {
      const result = await runCli(['timeline-check', FIXTURE, base])
      expect(result.code, result.stderr).toBe(2)
      expect(result.stderr).toMatch(/DYNO_ERR_(DATASET|INVALID_OPTION)/)
      expect(result.stderr).not.toMatch(/\n\s+at /)
    }
  })
})

// @ts-check
// A timeline's data directory and the runs appended to it come from elsewhere (a CI artifact restored, a run downloaded): every
// file the time machine reads is a regular file of its own, bounded in size and depth, and every record is checked before it is
// drawn or appended. A hostile one is refused with exit 2 naming the file and the field, no stack trace, no hang; nothing is
// appended, the site that was there stays as it was, npm never reads a framework's name as an option, and the site is never
// written through a symbolic link inside `--out`.
import { execFileSync } from 'node:child_process'
import {
  cpSync,
  existsSync,
  lstatSync,
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
import { idOf } from '../../src/history/timeline/timeline-dataset.js'
import { copyOfRun, FOUR_REPEATS } from '../support/compare-inputs.js'
import { runCli } from '../support/run-cli.js'

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'timeline-data')
const work = mkdtempSync(join(tmpdir(), 'dyno-hostile-timeline-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

let made = 0
/** A copy of the committed data directory, changed by `edit`. @param {(dir: string) => void} [edit] */
function dataset (edit) {
  const dir = join(work, `data-${++made}`)
  cpSync(FIXTURE, dir, { recursive: true })
  edit?.(dir)
  return dir
}

/** @param {string} dir @returns {any} one of its records */
const aRecord = (dir) => JSON.parse(readFileSync(join(dir, 'records', readdirSync(join(dir, 'records'))[0]), 'utf8'))

/** Every file under a directory with its text (a link as where it points), to show that nothing changed. @param {string} dir */
function contents (dir) {
  return Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => !entry.isDirectory())
      .map((entry) => {
        const path = join(entry.parentPath, entry.name)
        return [path, entry.isSymbolicLink() ? '-> link' : readFileSync(path, 'utf8')]
      })
  )
}

/** @param {{ code: number | null, stderr: string }} result @param {RegExp} says */
function expectRefused (result, says) {
  expect(result.code, result.stderr).toBe(2)
  expect(result.stderr).toMatch(says)
  expect(result.stderr).not.toMatch(/\n\s+at .*\.js:\d+|TypeError|RangeError|unexpected error/)
  expect(result.stderr.length).toBeLessThan(2000)
}

/** The commands that read a data directory, each refused the same way (timeline before it asks the registry). @param {string} dir */
const readers = (dir) => [
  ['site', dir, '--out', join(work, `never-site-${made}`)],
  ['timeline-add', dir, FOUR_REPEATS],
  ['timeline', dir, '--frameworks', 'express@4.21.2', '--runtime', 'node@20', '--plan']
]

describe('a hostile data directory', () => {
  it('with a release that is not a version is refused, and the site written before stays whole', async () => {
    const site = join(work, 'site-kept')
    expect((await runCli(['site', FIXTURE, '--out', site])).code).toBe(0)
    const before = contents(site)
    const dir = dataset((data) => {
      const record = aRecord(data)
      const key = { ...record.key, release: '<img src=x onerror=alert(1)>' }
      writeFileSync(
        join(data, 'records', `${idOf(key, record.status)}.json`),
        JSON.stringify({ ...record, key, id: idOf(key, record.status) })
      )
    })
    const says = new RegExp('DYNO_ERR_DATASET: .*records/[0-9a-f]{24}\\.json is not a record this dyno reads: ' +
      'key\\.release is "<img src=x onerror=alert\\(1\\)>"; allowed: a version')
    expectRefused(await runCli(['site', dir, '--out', site]), says)
    expect(contents(site)).toEqual(before)
    for (const argv of readers(dir).slice(1)) expectRefused(await runCli(argv), says)
  }, 60_000)

  it('with a record nested 200,000 deep is refused by every command that reads it, naming the file', async () => {
    const deep = join('records', 'abcdefabcdefabcdefabcdef.json')
    const dir = dataset((data) => writeFileSync(join(data, deep), `${'['.repeat(200_000)}${']'.repeat(200_000)}`))
    for (const argv of readers(dir)) {
      expectRefused(
        await runCli(argv),
        new RegExp(`DYNO_ERR_DATASET: ${join(dir, deep)} nests deeper than the 64 levels dyno reads; nothing`)
      )
    }
  }, 60_000)

  it('whose dataset.json is a FIFO, a record a link or records/ a link to another directory is refused at once, never ' +
    'read through', async () => {
    const fifo = dataset((data) => {
      rmSync(join(data, 'dataset.json'))
      execFileSync('mkfifo', [join(data, 'dataset.json')])
    })
    for (const argv of readers(fifo)) {
      expectRefused(await runCli(argv, { timeoutMs: 20_000 }), /DYNO_ERR_DATASET: .*dataset\.json is a FIFO, not a regular file/)
    }
    const elsewhere = dataset()
    const linkedRecord = dataset((data) => {
      const name = readdirSync(join(data, 'records'))[0]
      rmSync(join(data, 'records', name))
      symlinkSync(join(elsewhere, 'records', name), join(data, 'records', name))
    })
    expectRefused(
      await runCli(readers(linkedRecord)[0]),
      /DYNO_ERR_DATASET: .*records\/[0-9a-f]{24}\.json is a symbolic link, not a file of its own/
    )
    const linkedRecords = dataset((data) => {
      rmSync(join(data, 'records'), { recursive: true })
      symlinkSync(join(elsewhere, 'records'), join(data, 'records'))
    })
    expectRefused(await runCli(readers(linkedRecords)[1]), /DYNO_ERR_DATASET: .*records is a symbolic link, not a directory/)
  }, 60_000)
})

describe('dyno site --out', () => {
  it('never writes through a symbolic link left inside a site it wrote, nor into an --out that is one', async () => {
    const site = join(work, 'site-links')
    expect((await runCli(['site', FIXTURE, '--out', site])).code).toBe(0)
    const victim = join(work, 'victim.html')
    writeFileSync(victim, 'mine')
    const victimDir = join(work, 'victim-dir')
    mkdirSync(victimDir)
    writeFileSync(join(victimDir, 'echarts.min.js'), 'mine too')
    rmSync(join(site, 'index.html'))
    symlinkSync(victim, join(site, 'index.html'))
    rmSync(join(site, 'assets'), { recursive: true })
    symlinkSync(victimDir, join(site, 'assets'))
    const again = await runCli(['site', FIXTURE, '--out', site])
    expect(again.code, again.stderr).toBe(0)
    expect(readFileSync(victim, 'utf8')).toBe('mine')
    expect(readdirSync(victimDir)).toEqual(['echarts.min.js'])
    expect(readFileSync(join(victimDir, 'echarts.min.js'), 'utf8')).toBe('mine too')
    expect(lstatSync(join(site, 'index.html')).isFile()).toBe(true)
    expect(lstatSync(join(site, 'assets')).isDirectory()).toBe(true)
    // Nothing of the work is left beside it.
    expect(readdirSync(work).filter((name) => name.includes('dyno-site-'))).toEqual([])

    const linked = join(work, 'site-link')
    symlinkSync(victimDir, linked)
    expectRefused(await runCli(['site', FIXTURE, '--out', linked]), /DYNO_ERR_PATH: `--out` .*site-link is a symbolic link/)
    expect(readdirSync(victimDir)).toEqual(['echarts.min.js'])
  }, 60_000)
})

describe('dyno timeline-add', () => {
  /**
   * A run of counts as timeline-add reads it: the committed run, each result a release of express that was not counted.
   * @param {(record: any) => void} edit
   */
  function runOfReleases (edit) {
    const dir = copyOfRun(FOUR_REPEATS)
    const index = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'))
    for (const entry of index.results) {
      const path = join(dir, entry.file)
      const record = JSON.parse(readFileSync(path, 'utf8'))
      record.sut.framework = 'express'
      record.sut.variant = {
        entry: 'express@4.21.2',
        label: 'express@4.21.2',
        kind: 'npm',
        spec: '4.21.2',
        version: '4.21.2',
        integrity: null
      }
      Object.assign(record.load, { measure: 'instructions', countWarmupRequests: 100, countWindowRequests: 100, countWindows: 8 })
      Object.assign(record, { status: 'failed', reason: 'the SUT exited', errorCode: 'DYNO_ERR_SUT_EXITED' })
      edit(record)
      writeFileSync(path, JSON.stringify(record))
    }
    return dir
  }

  it('never gives npm a framework name it would read as an option, and appends nothing of a run with a record it cannot keep', async () => {
    const cache = join(work, 'npm-cache-never')
    const data = dataset()
    const before = contents(data)
    const option = runOfReleases((record) => { record.sut.framework = `--cache=${cache}` })
    expectRefused(await runCli(['timeline-add', data, option]),
      /DYNO_ERR_TIMELINE_RUN: .*--json(--r\d)?\.json: sut\.framework: "--cache=.*" is not an npm package's name/)
    expect(existsSync(cache)).toBe(false)

    const noWindows = runOfReleases((record) => { delete record.load.countWindows })
    expectRefused(await runCli(['timeline-add', data, noWindows]),
      /DYNO_ERR_TIMELINE_RUN: .*--json(--r\d)?\.json does not make a record the timeline keeps: key\.counting\.windows must be integer/)
    const notAVersion = runOfReleases((record) => { record.sut.variant.version = '4.21.2<script>' })
    expectRefused(await runCli(['timeline-add', data, notAVersion]), /DYNO_ERR_TIMELINE_RUN: .*key\.release is "4\.21\.2<script>"/)
    expect(contents(data)).toEqual(before)
  }, 60_000)
})

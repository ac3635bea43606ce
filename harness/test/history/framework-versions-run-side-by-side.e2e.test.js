// @ts-check
// Versions of a framework side by side, from the registry: express 4.21.2 and 5.3.0 in one run, each installed into a cached copy
// of the express SUT package (never this tree), both verified and measured, both counted; and every bad variant refused before
// anything is installed or started, an install that fails failing only its own rows.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../src/platform/paths.js'
import { dynoRun, shortRun } from '../support/dyno-run.js'
import { trackRuns } from '../support/leftover-processes.js'
import { missing, skipNote } from '../support/needs.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runCli } from '../support/run-cli.js'
import { writtenRun } from '../support/written-run.js'

const runs = trackRuns()
const absent = missing('registry', 'valgrind')
const work = mkdtempSync(join(tmpdir(), 'dyno-variants-'))
const cacheDir = join(work, 'cache')
const SCENARIOS = 'json,params,post,validation'

/** @param {string} out @returns {{ dir: string, index: any, records: any[] }} the run written under out */
function readOnlyRun (out) {
  const [runId] = readdirSync(out)
  runs.add(runId)
  const dir = join(out, runId)
  return { dir, ...writtenRun(dir) }
}

describe.skipIf(absent)(`framework variants${skipNote(absent)}`, () => {
  it('runs express 4.21.2 and 5.3.0 from the registry side by side, each verified, measured and counted, the tree untouched', async () => {
    const manifestBefore = readFileSync(join(REPO_ROOT, 'packages', 'express', 'package.json'), 'utf8')
    const installedBefore = JSON.parse(
      readFileSync(join(REPO_ROOT, 'packages', 'express', 'node_modules', 'express', 'package.json'), 'utf8')
    ).version
    const out = join(work, 'wall-clock')
    const result = await runCli(
      shortRun({ frameworks: 'express@4.21.2,express@5.3.0', scenarios: SCENARIOS, engine: 'autocannon', cacheDir, out }),
      { timeoutMs: 300_000 }
    )
    expect(result.code, result.stderr).toBe(0)
    const { index, records } = readOnlyRun(out)
    expect(schemaErrors('run-index', index)).toEqual([])
    expect(records.map((record) => `${record.sut.label} ${record.scenario.name} ${record.status}`)).toEqual(
      ['express@4.21.2', 'express@5.3.0'].flatMap((label) => SCENARIOS.split(',').map((scenario) => `${label} ${scenario} ok`)))
    for (const record of records) {
      expect(schemaErrors('result', record)).toEqual([])
      expect(record.verification.passed).toBe(true)
      expect(record.summary.requests).toBeGreaterThan(0)
      const version = record.sut.label.split('@')[1]
      expect(record.sut).toMatchObject({ name: 'express', frameworkVersion: version })
      expect(record.sut.variant).toMatchObject({
        kind: 'npm', entry: `express@${version}`, spec: version, version, integrity: expect.stringMatching(/^sha512-/)
      })
    }
    expect(index.planned.map((/** @type {{ file: string }} */ entry) => entry.file)).toContain('express@4.21.2--json.json')
    // Installed into copies in the cache; the SUT package and its install are as they were.
    expect(readdirSync(join(cacheDir, 'variants')).sort()).toEqual([expect.stringMatching(/^express@4\.21\.2-[0-9a-f]{16}$/),
      expect.stringMatching(/^express@5\.3\.0-[0-9a-f]{16}$/)])
    expect(readFileSync(join(REPO_ROOT, 'packages', 'express', 'package.json'), 'utf8')).toBe(manifestBefore)
    expect(JSON.parse(readFileSync(join(REPO_ROOT, 'packages', 'express', 'node_modules', 'express', 'package.json'), 'utf8')).version)
      .toBe(installedBefore)

    const countOut = join(work, 'counts')
    const counted = await runCli(dynoRun({
      frameworks: 'express@4.21.2,express@5.3.0',
      scenarios: 'json',
      measure: 'instructions',
      countWarmupRequests: 2000,
      countWarmupBoundRequests: 2000,
      countWindowRequests: 200,
      cacheDir,
      out: countOut
    }), { timeoutMs: 300_000 })
    expect(counted.code, counted.stderr).toBe(0)
    // The copies made for the first run are used again.
    expect(counted.stderr).not.toMatch(/install express@/)
    const counts = readOnlyRun(countOut).records
    expect(counts.map((record) => record.sut.label)).toEqual(['express@4.21.2', 'express@5.3.0'])
    for (const record of counts) expect(record.instructions.instructionsPerRequest).toBeGreaterThan(10_000)
  }, 600_000)

  it('refuses a variant that cannot be, with exit 2 naming it, before anything is installed or started', async () => {
    const other = join(work, 'not-express')
    mkdirSync(other, { recursive: true })
    writeFileSync(join(other, 'package.json'), JSON.stringify({ name: 'koa', version: '3.0.0' }))
    /** @type {[string, RegExp][]} */
    const cases = [
      [
        'express@99.0.0',
        /DYNO_ERR_UNKNOWN_VERSION: `--frameworks` `express@99\.0\.0`: express has no version `99\.0\.0` on the registry; allowed: .*latest/
      ],
      ['express@>=99', /DYNO_ERR_UNKNOWN_VERSION: `--frameworks` `express@>=99`: express has no version in the range `>=99`/],
      ['express@no-such-tag-dyno', /express has no dist-tag `no-such-tag-dyno` on the registry/],
      // Names every object has are specs like any other, not properties of the registry's answer.
      ...['constructor', 'toString', 'hasOwnProperty'].map(
        (tag) =>
          /** @type {[string, RegExp]} */ ([
            `express@${tag}`,
            new RegExp(`DYNO_ERR_UNKNOWN_VERSION: \`--frameworks\` \`express@${tag}\`: express has no dist-tag \`${tag}\` on the registry`)
          ])
      ),
      [
        `express@path:${join(work, 'missing')}`,
        new RegExp(`${join(work, 'missing')} is not a directory; allowed: a directory holding the express package`)
      ],
      [`express@path:${other}`, new RegExp(`${other} holds \`koa\`, not express`)],
      [
        'node-http@1.0.0',
        /`node-http@1\.0\.0`: node-http has no framework package to vary \(its framework is node:http\); allowed: .*express/
      ],
      ['go-gin@1.10.0', /go-gin has no framework package to vary \(its framework is gin, on go\)/],
      [
        'express@not a version!',
        /`--frameworks` must be .*`not a version!` is neither a version, a range nor a dist-tag, got `node-http,express@not a version!`/
      ]
    ]
    for (const [entry, says] of cases) {
      const cache = join(work, `cache-${readdirSync(work).length}`)
      const result = await runCli([
        'run',
        '--frameworks',
        `node-http,${entry}`,
        '--scenarios',
        'json',
        '--cache-dir',
        cache,
        '--out',
        join(work, 'never')
      ])
      expect(result.code, entry).toBe(2)
      expect(result.stderr, entry).toMatch(says)
      expect(existsSync(cache), entry).toBe(false)
      expect(existsSync(join(work, 'never')), entry).toBe(false)
    }
  }, 300_000)

  it('fails the rows of a variant whose install fails, with the installer\'s last lines, and measures the rest', async () => {
    const broken = join(work, 'broken-fastify')
    mkdirSync(broken, { recursive: true })
    writeFileSync(join(broken, 'package.json'), JSON.stringify({
      name: 'fastify', version: '5.0.0-broken', main: 'index.js', dependencies: { 'dyno-no-such-package-anywhere': '1.0.0' }
    }))
    writeFileSync(join(broken, 'index.js'), 'module.exports = {}\n')
    const out = join(work, 'broken')
    const result = await runCli(
      shortRun({ frameworks: `fastify@path:${broken},node-http`, scenarios: 'json', engine: 'autocannon', cacheDir, out }),
      { timeoutMs: 300_000 }
    )
    expect(result.code).toBe(1)
    const { records } = readOnlyRun(out)
    expect(records.map((record) => [record.sut.label, record.status])).toEqual([
      ['fastify@path:broken-fastify', 'failed'],
      ['node-http', 'ok']
    ])
    expect(records[0]).toMatchObject({
      errorCode: 'DYNO_ERR_SUT_BUILD',
      sut: { variant: { kind: 'path', version: '5.0.0-broken', commit: null } }
    })
    expect(records[0].reason).toMatch(/the variant fastify@path:.* could not be installed: pnpm install .* failed .*its last lines:/)
    expect(records[0].reason).toContain('dyno-no-such-package-anywhere')
  }, 300_000)
})

// @ts-check
// `compare-versions --app`: a service's own dependency (the fixture's ms) at two versions, each installed into a cached copy of the
// service with the service's own lockfile, both verified and measured on the service's scenarios in one run, and compared row by row.
// The user's directory is never installed into. What is checked is the record and the table, never a speed.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { trackRuns } from '../../support/leftover-processes.js'
import { schemaErrors } from '../../support/result-schemas.js'
import { runCli } from '../../support/run-cli.js'

const FIXTURE = fileURLToPath(new URL('../../fixtures/apps/timed-service', import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'dyno-app-versions-'))
const app = join(work, 'timed-service')
cpSync(FIXTURE, app, { recursive: true })
const runs = trackRuns()
afterAll(() => runs.expectNoneLeft(expect))

/** @param {string} text @param {RegExp} pattern @returns {string} the first group the pattern finds in the text */
const found = (text, pattern) => /** @type {string} */ (pattern.exec(text)?.[1])

describe('compare-versions --app', () => {
  it('measures two versions of a dependency of the service, each on its own installed copy, and compares them', async () => {
    const cacheDir = join(work, 'cache')
    const result = await runCli([
      'compare-versions', '--app', app, 'ms@2.0.0', 'ms@2.1.3', '--measure', 'wall-clock', '--engine', 'autocannon',
      '--duration', '1', '--warmup', '0', '--launch-warmup', '0', '--repeats', '1', '--connections', '10', '--disturbed-above', '99',
      '--format', 'md', '--cache-dir', cacheDir, '--out', join(work, 'results')
    ], { timeoutMs: 180_000 })
    expect(result.code, result.stderr).toBe(0)
    const runDir = found(result.stderr, /^dyno compare-versions: results in (.+)$/m)
    runs.add(basename(runDir))

    expect(result.stdout).toMatch(/^Baseline `timed \(ms@2\.0\.0\)` against candidate `timed \(ms@2\.1\.3\)` \(/)
    expect(result.stdout).toContain('timed (ms@2.0.0): 2.0.0 from the registry, sha512-')
    expect(result.stdout).toContain('timed (ms@2.1.3): 2.1.3 from the registry, sha512-')
    expect(result.stdout).toContain("installed with timed's pnpm-lock.yaml")
    expect(result.stdout).toMatch(/^\| timed \| timeout \| 10 \| 1\/1 \|/m)

    const records = readdirSync(runDir).filter((name) => name.endsWith('--timeout.json'))
      .map((name) => JSON.parse(readFileSync(join(runDir, name), 'utf8')))
    expect(records.map((record) => record.sut.label).sort()).toEqual(['timed (ms@2.0.0)', 'timed (ms@2.1.3)'])
    for (const record of records) {
      const version = record.sut.variant.version
      expect(schemaErrors('result', record)).toEqual([])
      expect(record.status, `${record.sut.label}: ${record.reason}`).toBe('ok')
      expect(record.verification.passed).toBe(true)
      expect(record.sut).toMatchObject({ name: 'timed', package: 'app:timed', framework: 'timed' })
      expect(record.sut.variant).toMatchObject({ entry: `ms@${version}`, kind: 'npm', spec: version, lockfile: 'pnpm-lock.yaml' })
      expect(record.sut.variant.integrity).toMatch(/^sha512-/)
    }

    // Each copy holds the version asked for; the service's own directory is as it was, nothing installed into it.
    const copies = readdirSync(join(cacheDir, 'app-variants'))
    expect(copies.map((name) => name.replace(/-[0-9a-f]{16}$/, '')).sort()).toEqual(['timed-ms@2.0.0', 'timed-ms@2.1.3'])
    for (const copy of copies) {
      const installed = JSON.parse(readFileSync(join(cacheDir, 'app-variants', copy, 'node_modules', 'ms', 'package.json'), 'utf8'))
      expect(copy).toContain(`ms@${installed.version}-`)
      expect(JSON.parse(readFileSync(join(cacheDir, 'app-variants', copy, 'package.json'), 'utf8')).dependencies.ms)
        .toBe(installed.version)
    }
    expect(existsSync(join(app, 'node_modules'))).toBe(false)
    expect(readFileSync(join(app, 'package.json'), 'utf8')).toBe(readFileSync(join(FIXTURE, 'package.json'), 'utf8'))
  })
})

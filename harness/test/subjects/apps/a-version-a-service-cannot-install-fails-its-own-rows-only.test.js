// @ts-check
// compare-versions --app with the bare name of a dependency runs the service as it is installed (its own pin); a version whose copy of
// the service cannot be installed fails its own rows, with the installer's words, and the other side is still measured and reported.
import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { trackRuns } from '../../support/leftover-processes.js'
import { runCli } from '../../support/run-cli.js'

const FIXTURE = fileURLToPath(new URL('../../fixtures/apps/timed-service', import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'dyno-app-install-fails-'))
const runs = trackRuns()
afterAll(() => runs.expectNoneLeft(expect))

/** @param {string} text @param {RegExp} pattern @returns {string} the first group the pattern finds in the text */
const found = (text, pattern) => /** @type {string} */ (pattern.exec(text)?.[1])

describe('compare-versions --app', () => {
  it('runs the service as installed for the bare name, and keeps its rows when the other version cannot be installed', async () => {
    const own = join(work, 'own-service')
    cpSync(FIXTURE, own, { recursive: true })
    execFileSync('pnpm', ['install', '--offline', '--frozen-lockfile', '--ignore-workspace'], { cwd: own, stdio: 'ignore' })
    // A dependency no install can find: the service's own node_modules are already there, a copy of it cannot be installed.
    const manifest = JSON.parse(readFileSync(join(own, 'package.json'), 'utf8'))
    const dependencies = { ...manifest.dependencies, gone: 'file:./gone' }
    writeFileSync(join(own, 'package.json'), JSON.stringify({ ...manifest, dependencies }))
    const result = await runCli([
      'compare-versions', '--app', own, 'ms', 'ms@2.0.0', '--measure', 'wall-clock', '--engine', 'autocannon', '--duration', '1',
      '--warmup', '0', '--launch-warmup', '0', '--repeats', '1', '--connections', '10', '--disturbed-above', '99', '--format', 'md',
      '--cache-dir', join(work, 'cache-own'), '--out', join(work, 'results-own')
    ], { timeoutMs: 180_000 })
    expect(result.code, result.stderr).toBe(0)
    const runDir = found(result.stderr, /^dyno compare-versions: results in (.+)$/m)
    runs.add(basename(runDir))
    expect(result.stdout).toMatch(/^Baseline `timed` against candidate `timed \(ms@2\.0\.0\)` \(ms: timed's own, 2\.1\.3; /)
    expect(result.stdout).toMatch(/^\| timed \| timeout \| 10 \|.*\| not comparable \|$/m)
    const records = readdirSync(runDir).filter((name) => name.endsWith('--timeout.json'))
      .map((name) => JSON.parse(readFileSync(join(runDir, name), 'utf8')))
    const byLabel = Object.fromEntries(records.map((record) => [record.sut.label, record]))
    expect(Object.keys(byLabel).sort()).toEqual(['timed', 'timed (ms@2.0.0)'])
    expect(byLabel.timed.status, byLabel.timed.reason).toBe('ok')
    expect(byLabel.timed.sut.variant).toBeNull()
    expect(byLabel['timed (ms@2.0.0)'].status).toBe('failed')
    expect(byLabel['timed (ms@2.0.0)'].reason).toMatch(/the variant ms@2\.0\.0 could not be installed: pnpm install .* failed/)
  })
})

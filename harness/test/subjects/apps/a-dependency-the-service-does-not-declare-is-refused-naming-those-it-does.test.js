// @ts-check
// compare-versions --app names versions of a dependency of the service: a package its package.json does not declare is refused before
// anything is asked of the registry, installed or started, naming the entry and the dependencies it could be; and the service's own
// scenarios are the comparison's, whatever the measure's default scenarios for dyno's SUTs are.
import { cpSync, existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { COMMANDS } from '../../../src/interface/cli/command-table.js'
import { parseCommandLine } from '../../../src/interface/cli/parse-command-line.js'
import { runCli } from '../../support/run-cli.js'

const FIXTURE = fileURLToPath(new URL('../../fixtures/apps/timed-service', import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'dyno-app-dependency-'))
const app = join(work, 'timed-service')
cpSync(FIXTURE, app, { recursive: true })

describe('compare-versions --app', () => {
  it('refuses a package the service does not depend on, naming the one it does, with nothing written', async () => {
    const out = join(work, 'results')
    const cacheDir = join(work, 'cache')
    const result = await runCli(['compare-versions', '--app', app, 'express@4.21.2', 'express@5.1.0', '--measure', 'wall-clock',
      '--out', out, '--cache-dir', cacheDir])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/DYNO_ERR_UNKNOWN_FRAMEWORK: `compare-versions` `express@4\.21\.2`: express is not a dependency of timed/)
    expect(result.stderr).toMatch(/allowed: timed, or a dependency of its package\.json, .* \(ms\)\n/)
    expect(existsSync(out)).toBe(false)
    expect(existsSync(cacheDir)).toBe(false)
  })

  it('refuses what cannot be a version of it, naming the value', async () => {
    const result = await runCli(['compare-versions', '--app', app, 'ms@2.0.0', 'ms@not a version', '--measure', 'wall-clock'])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/DYNO_ERR_INVALID_OPTION: .*`not a version` is neither a version, a range nor a dist-tag/)
  })

  it.each(['wall-clock', 'instructions'])('takes the service\'s scenarios by default, measured by %s', (measure) => {
    const { options } = parseCommandLine(['compare-versions', 'ms@2.0.0', 'ms@2.1.3', '--app', app, '--measure', measure], COMMANDS)
    expect(options.values.scenarios).toEqual(['timeout'])
  })
})

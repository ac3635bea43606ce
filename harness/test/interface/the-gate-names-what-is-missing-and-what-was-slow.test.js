// @ts-check
// The gate's own tools, as `.ci/run` runs them: before any test, every tool and service the tests need is checked at once and a
// missing one is named with what installs it (exit 1); at the end, the slowest test files are printed from the times each vitest run
// appended, a line torn by a run cut short said and skipped, the slowest first.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../src/platform/paths.js'

const CHECK_NEEDS = join(REPO_ROOT, 'harness', 'test', 'support', 'check-needs.js')
const SLOWEST = join(REPO_ROOT, '.ci', 'slowest-test-files.js')

/** @param {string} script @param {string[]} args @param {NodeJS.ProcessEnv} [env] */
const node = (script, args, env = process.env) =>
  spawnSync(process.execPath, [script, ...args], { cwd: REPO_ROOT, env, encoding: 'utf8', timeout: 120_000 })

describe('the gate', () => {
  it('names every missing tool with what installs it, before any test, and exits 1', () => {
    // A PATH where nothing is found: every tool the suite needs from it is missing. DYNO_PYTHON and the services' URLs are unset so
    // that nothing is found another way.
    const env = { HOME: process.env.HOME, PATH: '/nonexistent', CI: 'true' }
    const result = node(CHECK_NEEDS, [], env)
    expect(result.status, result.stderr).toBe(1)
    expect(result.stderr).toMatch(/^ci: missing: wrk: wrk is not installed \(apt-get install wrk\)$/m)
    expect(result.stderr).toMatch(/^ci: missing: redis: redis-server is not installed \(apt-get install redis-server\)/m)
    expect(result.stderr).toMatch(/^ci: missing: the wrk engine: /m)
    expect(result.stderr).toMatch(/^ci: \d+ of the \d+ things the tests need are missing; no test was run$/m)
    expect(result.stdout).toBe('')
  })

  it('prints the slowest test files first, from every run\'s times, saying which line it could not read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dyno-test-times-'))
    const line = (/** @type {string} */ file, /** @type {number} */ sec, project = 'e2e') =>
      JSON.stringify({ file: join(REPO_ROOT, 'harness', 'test', file), project, sec, state: 'passed' })
    writeFileSync(join(dir, 'harness-101.jsonl'), [line('a.e2e.test.js', 12.5), line('b.e2e.test.js', 300.25)].join('\n') + '\n')
    writeFileSync(join(dir, 'harness-102.jsonl'), `${line('c.test.js', 40, 'parallel')}\n{"file": "torn`)
    writeFileSync(join(dir, 'not-times.txt'), 'ignored')
    const result = node(SLOWEST, [dir, '2'])
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout.split('\n').filter(Boolean)).toEqual([
      'ci: the 2 slowest of 3 test files',
      expect.stringMatching(/^ {4}300\.3 s {2}harness\/test\/b\.e2e\.test\.js {2}harness e2e passed$/),
      expect.stringMatching(/^ {5}40\.0 s {2}harness\/test\/c\.test\.js {6}harness parallel passed$/)
    ])
    expect(result.stderr).toBe('ci: a line of harness-102.jsonl is not whole JSON (its run was cut short there)\n')
  })

  it('refuses a count that is not a whole number, naming it', () => {
    const result = node(SLOWEST, [tmpdir(), 'many'])
    expect(result.status).toBe(2)
    expect(result.stderr).toContain('a whole number >= 1, got `many`')
  })
})

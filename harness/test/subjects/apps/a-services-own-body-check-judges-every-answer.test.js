// @ts-check
// A service's config may name a module of its own that judges each body (`expect.body.module`): verification shows its reason beside
// the body it rejected, the engines that check bodies under load count what it rejects there, and a module that cannot judge is a
// config error naming it before anything starts.
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { shortRun } from '../../support/dyno-run.js'
import { runCli } from '../../support/run-cli.js'
import { writtenRun } from '../../support/written-run.js'

const FIXTURE = fileURLToPath(new URL('../../fixtures/apps/judged-service', import.meta.url))

/**
 * @param {string} module the module the item's body is judged by, as the config names it
 * @param {number} [initialStock] the stock the service starts with; each answer takes one
 * @returns {string} a copy of the service, its config naming that module
 */
function judgedService (module, initialStock = 1_000_000) {
  const dir = join(mkdtempSync(join(tmpdir(), 'dyno-judged-')), 'service')
  cpSync(FIXTURE, dir, { recursive: true })
  writeFileSync(join(dir, 'dyno.config.yaml'), [
    'name: judged',
    `start: { file: server.js, env: { INITIAL_STOCK: '${initialStock}' }, ready: { path: /health, status: 200 } }`,
    'scenarios:',
    '  - name: item',
    '    request: { path: /items/7 }',
    `    expect: { status: 200, contentType: application/json, body: { module: '${module}' } }`
  ].join('\n'))
  return dir
}

describe("a service's own body check", () => {
  it('passes a body it accepts', async () => {
    const result = await runCli(['verify', '--app', judgedService('checks/in-stock.mjs')], { timeoutMs: 30_000 })
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(result.stdout).toMatch(/judged\s+│ pass/)
  })

  it.each([
    [
      'rejects',
      'checks/in-stock.mjs',
      new RegExp('GET /items/7: body \\(in-stock\\.mjs\\) expected "a body in-stock\\.mjs accepts", ' +
        'got "item 7 is out of stock: \\{\\\\"id\\\\":\\\\"7\\\\",\\\\"stock\\\\":0\\}"')
    ],
    ['throws', 'checks/throws.mjs', /body \(throws\.mjs\) expected .*, got "the check threw: no catalogue to check against: /]
  ])('fails verification where it %s, saying why beside the body', async (_, module, says) => {
    const result = await runCli(['verify', '--app', judgedService(module, 0)], { timeoutMs: 30_000 })
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(/judged\s+│ FAIL/)
    expect(result.stdout).toMatch(says)
  })

  it.each([
    ['not a function', 'checks/not-a-function.mjs', /not-a-function\.mjs: its default export is a number; it must be a function/],
    ['absent', 'checks/absent.mjs', /\/scenarios\/0\/expect\/body\/module: `checks\/absent\.mjs` does not exist/],
    ['outside the service', '../outside.mjs', /`\.\.\/outside\.mjs` is outside the service's directory/]
  ])('is a config error naming the module when it is %s', async (_, module, says) => {
    const dir = judgedService(module)
    writeFileSync(join(dir, '..', 'outside.mjs'), 'export default () => true\n')
    const result = await runCli(['verify', '--app', dir], { timeoutMs: 30_000 })
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/DYNO_ERR_APP_CONFIG/)
    expect(result.stderr).toMatch(says)
  })

  // The stock runs out after 20 answers: verification (no launch warm-up before it) passes, then under load every later answer is one
  // the module rejects.
  it.each(['autocannon', 'wrk'])('counts the bodies it rejects under load (%s)', async (engine) => {
    const out = mkdtempSync(join(tmpdir(), `dyno-judged-${engine}-out-`))
    const result = await runCli(shortRun({ app: judgedService('checks/in-stock.mjs', 20), engine, durationSec: 1, launchWarmupSec: 0, out },
      ['--quiet-check', 'off']), { timeoutMs: 60_000 })
    const runDir = /results: (.+)/.exec(result.stdout)?.[1] ?? ''
    const [record] = writtenRun(runDir).records
    expect(record.status, result.stdout + result.stderr).toBe('invalid')
    expect(record.reason).toMatch(/^DYNO_ERR_UNEXPECTED_UNDER_LOAD: measure: \d+ of \d+ responses had a body that does not match/)
    expect(record.summary.mismatches).toBeGreaterThan(0)
    expect(record.summary.mismatches).toBeLessThan(record.summary.requests)
  })
})

// @ts-check
// A service given by --app that cannot be measured ends as a failure that says why, in bounded time, and verification goes on to the
// end: one that exits at start, one that never answers its probe as asked, one that listens on a port of its own instead of PORT, one
// that answers another body or header than its config expects. One that leaks under load is measured, its result kept, and named as
// leaking.
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { LEAK_MIN_BYTES } from '../../../src/measures/wall-clock/steady-memory-check.js'
import { shortRun } from '../../support/dyno-run.js'
import { runCli } from '../../support/run-cli.js'
import { writtenRun } from '../../support/written-run.js'

const SERVER = fileURLToPath(new URL('../../fixtures/apps/broken-service/server.js', import.meta.url))

/** @param {string} mode @returns {string} a service directory whose server goes wrong that way */
function brokenService (mode) {
  const dir = mkdtempSync(join(tmpdir(), `dyno-broken-${mode}-`))
  copyFileSync(SERVER, join(dir, 'server.js'))
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }')
  writeFileSync(join(dir, 'dyno.config.yaml'), [
    'name: broken',
    `start: { file: server.js, env: { MODE: ${mode} }, ready: { path: /health, status: 200 } }`,
    'scenarios:',
    '  - name: total',
    '    request: { path: /total }',
    '    expect:',
    '      status: 200',
    '      headers: { Cache-Control: no-store }',
    '      body: { schema: { type: object, required: [total], properties: { total: { type: integer } } } }'
  ].join('\n'))
  return dir
}

describe('a broken service given by --app', () => {
  // Each verification mostly waits on its service, so the five wait side by side.
  it.concurrent.for(/** @type {[string, RegExp][]} */ ([
    ['exits', /DYNO_ERR_SUT_EXITED: broken exited before it was ready \(exit code 3\); last stderr lines:\n.*cannot read settings\.toml/],
    ['unhealthy', /DYNO_ERR_SUT_NOT_READY: broken did not answer GET \/health on port \d+ with 200 within 3 s \(last: status 503\)/],
    [
      'own-port',
      /broken did not answer GET \/health on port (\d+) with 200 within 3 s \(last: ECONNREFUSED\); it was given PORT=\1/
    ],
    ['wrong-body', /GET \/total: body \(JSON Schema\) expected .*got .*total.*seven/],
    ['wrong-header', /GET \/total: header cache-control expected "no-store", got "public"/]
  ]))('%s: fails verification, saying why', async ([mode, says], { expect }) => {
    const result = await runCli(['verify', '--app', brokenService(mode), '--ready-timeout', '3'], { timeoutMs: 30_000 })
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(/broken\s+│ FAIL/)
    expect(result.stdout).toMatch(says)
  })

  // An open model at 100 req/s for 4 s, whatever the machine's speed: a MiB kept a request is about 270 MiB between the first and the
  // last third of the phase, four times the smallest leak named (64 MiB), where a service that keeps nothing grows by a few MiB.
  it.each([['leaks', false], ['healthy', true]])('%s: is measured, its result kept, and named where its memory keeps growing',
    async (mode, steady) => {
      const out = mkdtempSync(join(tmpdir(), `dyno-${mode}-out-`))
      const result = await runCli(shortRun({ app: brokenService(mode), ratePerSec: 100, durationSec: 4, engine: 'native', out },
        ['--quiet-check', 'off']), { timeoutMs: 60_000 })
      expect(result.code, result.stderr).toBe(0)
      const runDir = /results: (.+)/.exec(result.stdout)?.[1] ?? ''
      const [record] = writtenRun(runDir).records
      expect(record.status).toBe('ok')
      const memory = record.consistency.checks.find((/** @type {{ name: string }} */ check) => check.name === 'steady-memory')
      expect(memory.passed, memory.detail).toBe(steady)
      if (steady) return
      expect(LEAK_MIN_BYTES).toBe(64 * 1024 * 1024)
      expect(memory.detail).toMatch(/^the SUT's resident memory went from [\d.]+ to [\d.]+ MiB, .*, still growing at the end: it leaks/)
      // A MiB kept a request, read from samples of the whole process: within a factor of two of it.
      const perRequestKib = Number(/\(([\d.]+) KiB a request\)/.exec(memory.detail)?.[1])
      expect(perRequestKib).toBeGreaterThan(512)
      expect(perRequestKib).toBeLessThan(2048)
      expect(record.consistency.failed).toEqual(['steady-memory'])
      expect(result.stdout).toMatch(/total: 1 result failing the consistency check steady-memory/)
      expect(readFileSync(join(runDir, 'report.md'), 'utf8')).toContain('it leaks under load')
    })
})

// @ts-check
// A service given by --app that cannot be measured ends as a failure that says why, in bounded time, and verification goes on to the
// end: one that exits at start, one that never answers its probe as asked, one that listens on a port of its own instead of PORT, one
// that answers another body than its config expects.
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../support/run-cli.js'

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
    '      body: { schema: { type: object, required: [total], properties: { total: { type: integer } } } }'
  ].join('\n'))
  return dir
}

describe('a broken service given by --app', () => {
  it.each([
    ['exits', /DYNO_ERR_SUT_EXITED: broken exited before it was ready \(exit code 3\); last stderr lines:\n.*cannot read settings\.toml/],
    ['unhealthy', /DYNO_ERR_SUT_NOT_READY: broken did not answer GET \/health on port \d+ with 200 within 3 s \(last: status 503\)/],
    [
      'own-port',
      /broken did not answer GET \/health on port (\d+) with 200 within 3 s \(last: ECONNREFUSED\); it was given PORT=\1/
    ],
    ['wrong-body', /GET \/total: body \(JSON Schema\) expected .*got .*total.*seven/]
  ])('%s: fails verification, saying why', async (mode, says) => {
    const result = await runCli(['verify', '--app', brokenService(mode), '--ready-timeout', '3'], { timeoutMs: 30_000 })
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(/broken\s+│ FAIL/)
    expect(result.stdout).toMatch(says)
  })
})

// @ts-check
// A run of the protocol scenarios measures each in its protocol: the run makes its certificate once, in its temporary directory, and
// removes it after; the SUT serves with it, verification and the native engine trust it; every result records the scenario's
// protocol, what the engine's connections negotiated and the streams, and the table shows them, a WebSocket's in messages.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { findNativeEngine } from '../../src/load/engines/native/native-binary.js'
import { shortRun } from '../support/dyno-run.js'
import { trackRuns } from '../support/leftover-processes.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runCli } from '../support/run-cli.js'
import { writtenRun } from '../support/written-run.js'

const runs = trackRuns()
const native = findNativeEngine()

it.skipIf(!native.ok)(`measures tls-json, h2-json, h2c-json and ws-echo on the run's own certificate${native.ok
? ''
: ' (skipped: ' +
  `${native.reason})`}`,
async () => {
  const out = mkdtempSync(join(tmpdir(), 'dyno-protocols-'))
  const scratch = mkdtempSync(join(tmpdir(), 'dyno-protocols-tmp-'))
  const result = await runCli(
    shortRun({
      frameworks: 'node-http',
      scenarios: 'tls-json,h2-json,h2c-json,ws-echo',
      engine: 'native',
      verbose: true,
      streams: 2,
      durationSec: 1,
      connections: 4,
      quietCheck: 'off',
      out
    }),
    { env: { ...process.env, TMPDIR: scratch }, timeoutMs: 100_000 }
  )
  // The certificate's directory (and the SUT's event-loop files) are gone once the run has ended.
  expect(readdirSync(scratch)).toEqual([])
  rmSync(scratch, { recursive: true })
  expect(result.code, result.stderr).toBe(0)
  const [runId] = readdirSync(out)
  runs.add(runId)
  const runDir = join(out, runId)
  const { index, records } = writtenRun(runDir)
  expect(schemaErrors('run-index', index)).toEqual([])
  const negotiated = {
    'tls-json': 'http/1.1 over TLSv1.3',
    'h2-json': 'h2 over TLSv1.3',
    'h2c-json': 'h2c',
    'ws-echo': 'websocket ' +
      'over http/1.1'
  }
  const protocols = { 'tls-json': 'tls', 'h2-json': 'h2', 'h2c-json': 'h2c', 'ws-echo': 'ws' }
  expect(records.map((record) => record.scenario.name).sort()).toEqual(Object.keys(negotiated).sort())
  for (const record of records) {
    const name = /** @type {keyof typeof negotiated} */ (record.scenario.name)
    expect(schemaErrors('result', record)).toEqual([])
    expect(record.status, record.reason ?? '').toBe('ok')
    expect(record.verification.passed).toBe(true)
    expect(record.scenario.protocol).toBe(protocols[name])
    expect(record.load).toMatchObject({ engine: 'native', streams: 2 })
    expect(record.summary?.protocolNegotiated).toBe(negotiated[name])
    expect(record.summary?.requests).toBeGreaterThan(0)
    expect(record.summary?.mismatches).toBe(0)
  }
  // The key is in no file of the run, and the table says what each cell spoke, a WebSocket's figures per message.
  for (const file of readdirSync(runDir)) expect(readFileSync(join(runDir, file), 'utf8')).not.toMatch(/PRIVATE KEY/)
  expect(result.stdout).toMatch(/h2 over TLSv1\.3, 2 streams/)
  expect(result.stdout).toMatch(/websocket over http\/1\.1, 2 messages in flight/)
  expect(result.stdout).toMatch(/req\/s \| msg\/s/)
  // report.md and report.html say it over each scenario's table and charts; plain HTTP/1.1 needs no such line.
  const markdown = readFileSync(join(runDir, 'report.md'), 'utf8')
  const html = readFileSync(join(runDir, 'report.html'), 'utf8')
  for (const [name, spoken] of Object.entries(negotiated)) {
    const streams = name === 'tls-json' ? '' : name === 'ws-echo' ? ', 2 messages in flight' : ', 2 streams'
    expect(markdown).toContain(`Protocol: ${spoken}${streams}.`)
    const inItsSection = `<section id="scenario-${name}">(?:(?!</section>)[\\s\\S])*`
    expect(html).toMatch(new RegExp(`${inItsSection}<p class="protocol">Protocol: ${spoken}${streams}\\.</p>`))
  }
  rmSync(out, { recursive: true, force: true })
}, 120_000)

afterAll(() => runs.expectNoneLeft(expect))

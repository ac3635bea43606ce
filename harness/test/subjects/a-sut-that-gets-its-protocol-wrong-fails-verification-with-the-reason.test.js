// @ts-check
// Fixture SUTs that get a protocol wrong on purpose, verified as `dyno verify` does (a process per protocol, the run's certificate): each
// fails with its reason, naming what was expected and what came back. A SUT that serves TLS as the contract says passes, so the checks can
// tell the two apart.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { parseOptions } from '../../src/interface/cli/command-table.js'
import { verifySuts } from '../../src/interface/commands/verify-command.js'
import { runEnv } from '../../src/platform/env/run-env.js'
import { startSut } from '../../src/subjects/sut-process/start-sut.js'
import { resolveSubjects } from '../../src/subjects/suts/resolve-subjects.js'
import { makeRunCertificate } from '../../src/subjects/tls/run-certificate.js'
import { fixtureSut } from '../support/fixture-suts.js'
import { trackRuns } from '../support/leftover-processes.js'

const runs = trackRuns()

/**
 * The verify cells of one fixture SUT on the given scenarios, by scenario.
 * @param {import('../support/fixture-suts.js').FixtureName} fixture
 * @param {string[]} scenarios
 */
async function verifyFixture (fixture, scenarios) {
  const runId = runs.add(`protocol-verification-${fixture}-${process.pid}`)
  const sut = fixtureSut(fixture)
  const options = parseOptions('verify', { '--scenarios': scenarios.join(','), '--ready-timeout': '15' }).values
  const [row] = await verifySuts({ ...options, frameworks: [sut.name] }, { suts: [sut], runId })
  return Object.fromEntries(row.cells.map((cell) => [cell.scenario, cell]))
}

/**
 * Starts a fixture SUT with the given environment and returns the error its start ends with.
 * @param {import('../support/fixture-suts.js').FixtureName} fixture
 * @param {Record<string, string>} env
 */
async function startFailure (fixture, env) {
  const [sut] = await resolveSubjects([fixtureSut(fixture)], { runtimes: ['node'], workers: 1 })
  const runId = runs.add(`protocol-start-${fixture}-${process.pid}`)
  try {
    const running = await startSut(sut, { readyTimeoutSec: 15, stopGraceSec: 5, env: { ...runEnv(runId), ...env } })
    await running.stop(5000)
    return null
  } catch (error) {
    return /** @type {import('../../src/platform/errors.js').DynoError} */ (error)
  }
}

it('fails h2-json for a SUT that announces h2 but serves HTTP/1.1 over TLS: no HTTP/2 session, and HTTP/1.1 answered 200', async () => {
  const { 'h2-json': cell } = await verifyFixture('claims-h2-serves-http1', ['h2-json'])
  expect(cell.state).toBe('fail')
  // node:https offers ALPN http/1.1 only, so the HTTP/2 client is refused in the handshake.
  expect(cell.reason).toMatch(/^2 of 2 checks failed: GET \/json: HTTP\/2 connection expected "an HTTP\/2 session", got "[^"\n]+"; /)
  expect(cell.reason).toContain(
    'GET /json in HTTP/1.1: HTTP/1.1 is not served on the HTTP/2 port expected "refused, or answered with an error status, ' +
      'never 2xx", got "answered \\"HTTP/1.1 200 OK\\": {\\"message\\":\\"Hello, World!\\"}"'
  )
}, 60_000)

it('fails ws-echo for a SUT whose Sec-WebSocket-Accept is not the one RFC 6455 makes from the key', async () => {
  const { 'ws-echo': cell } = await verifyFixture('wrong-accept-key', ['ws-echo'])
  expect(cell.state).toBe('fail')
  // Only the accept key is wrong: the plain GET was refused and every message came back.
  expect(cell.reason).toMatch(
    /^1 of \d+ checks failed: WebSocket \/ws: Sec-WebSocket-Accept expected "[A-Za-z0-9+/]{27}=", got "[A-Za-z0-9+/]{27}="$/
  )
}, 60_000)

it('fails ws-echo for a SUT whose echo differs from the message sent, saying what came back', async () => {
  const { 'ws-echo': cell } = await verifyFixture('echo-differs', ['ws-echo'])
  expect(cell.state).toBe('fail')
  // The handshake, the binary message, the burst (lower-case already) and the close were right.
  expect(cell.reason).toBe('1 of 9 checks failed: WebSocket /ws: text message echoed expected "text \\"Hello, WebSocket!\\"", ' +
    'got "text \\"hello, websocket!\\""')
}, 60_000)

it("passes tls-json on the run's certificate for a SUT that serves it, and skips the protocols it declares it does not serve", async () => {
  const cells = await verifyFixture('serves-tls', ['json', 'tls-json', 'h2-json', 'h2c-json'])
  expect(cells.json).toMatchObject({ state: 'pass' })
  expect(cells['tls-json']).toMatchObject({ state: 'pass' })
  // Started for h2, its start refuses the protocol (exit 1): skipped with the declared reason and what the start said.
  expect(cells['h2-json'].state).toBe('skipped')
  expect(cells['h2-json'].reason).toMatch(
    /^unsupported: fixture: serves HTTP\/1\.1 and TLS only \(seen: DYNO_ERR_SUT_EXITED: .*exited before it was ready/s
  )
  expect(cells['h2-json'].reason).toContain('PROTOCOL=h2 is not served by this SUT, which serves http1, tls')
  expect(cells['h2c-json'].state).toBe('skipped')
}, 60_000)

it('names the key file when the SUT cannot load the certificate: the SUT exits at start with one line saying why', async () => {
  const certificate = await makeRunCertificate()
  const dir = mkdtempSync(join(tmpdir(), 'dyno-bad-key-'))
  try {
    const badKeyFile = join(dir, 'key.pem')
    writeFileSync(badKeyFile, '-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n', { mode: 0o600 })
    const error = await startFailure('serves-tls', { PROTOCOL: 'tls', TLS_CERT_FILE: certificate.certFile, TLS_KEY_FILE: badKeyFile })
    expect(error?.code).toBe('DYNO_ERR_SUT_EXITED')
    expect(error?.message).toContain('exited before it was ready (exit code 1)')
    expect(error?.message).toContain(
      `cannot load the certificate TLS_CERT_FILE=${certificate.certFile} with the key TLS_KEY_FILE=${badKeyFile}`
    )
  } finally {
    certificate.dispose()
    rmSync(dir, { recursive: true, force: true })
  }
}, 30_000)

it('stops a SUT whose ready line announces another protocol than the one asked, or none, naming both', async () => {
  const other = await startFailure('wrong-accept-key', { PROTOCOL: 'h2c' })
  expect(other?.code).toBe('DYNO_ERR_SUT_PROTOCOL')
  expect(other?.message).toMatch(
    /^SUT fixture-wrong-accept-key was asked to serve PROTOCOL=h2c, but its ready line announced "http1": \{"event":"ready"/
  )
  const none = await startFailure('old-ready-line', {})
  expect(none?.code).toBe('DYNO_ERR_SUT_PROTOCOL')
  expect(none?.message).toMatch(/^SUT fixture-old-ready-line was asked to serve PROTOCOL=http1, but its ready line announced no protocol: /)
}, 30_000)

afterAll(() => runs.expectNoneLeft(expect))

// @ts-check
// The session keeps a SUT's process for its consecutive cells only while they are served in one protocol: PROTOCOL is read at start, so
// a cell of another protocol gets a process started for it (with its PROTOCOL and, over TLS, the run's certificate), and a WebSocket cell
// is served by the HTTP/1.1 process. Each process announces the protocol it was started for.
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { PACKAGES_DIR } from '../../src/platform/paths.js'
import { localHost } from '../../src/platform/hosts/local/local-host.js'
import { ok } from '../../src/records/outcome.js'
import { loadSut } from '../../src/subjects/suts/discover-suts.js'
import { resolveSubjects } from '../../src/subjects/suts/resolve-subjects.js'
import { makeRunCertificate } from '../../src/subjects/tls/run-certificate.js'
import { createSutSession } from '../../src/suite/sut-session.js'
import { trackRuns } from '../support/leftover-processes.js'
import { scenarioNamed } from '../support/run-fixture.js'

const runs = trackRuns()

it('starts the SUT again for a cell of another protocol, and keeps it for the cells of the same', async () => {
  const [sut] = await resolveSubjects([loadSut(join(PACKAGES_DIR, 'node-http'))], { runtimes: ['node'], workers: 1 })
  const certificate = await makeRunCertificate()
  const context = /** @type {import('../../src/measures/cell-context.js').RunContext} */ (/** @type {unknown} */ ({
    runId: runs.add(`protocol-sessions-${process.pid}`),
    load: { runtimeEvents: false, windowMs: 250 },
    sutHost: localHost('sut', {}),
    services: { envFor: () => ({}) },
    pgPoolSize: 1,
    pinning: { sutCpus: null },
    readyTimeoutSec: 15,
    stopGraceSec: 5,
    signal: new AbortController().signal,
    certificate
  }))
  const session = createSutSession(context)
  const order = ['json', 'ws-echo', 'tls-json', 'h2-json', 'h2c-json', 'plaintext']
  /** @type {{ scenario: string, pid: number | null, protocol: unknown, servedBefore: number | undefined }[]} */
  const served = []
  try {
    for (const [index, name] of order.entries()) {
      const cell = /** @type {import('../../src/measures/cell-context.js').Cell} */ ({
        sut,
        scenario: scenarioNamed(name),
        connections: 1,
        repeat: { index: 1, of: 1 },
        sessionServices: [],
        launchScenarios: [],
        keepSut: index < order.length - 1
      })
      const record = /** @type {import('../../src/records/result-record.js').ResultRecord} */ (/** @type {unknown} */ ({
        sutProcess: { pid: null, ready: null, exit: null, forcedKill: false, stderrTail: [] }, stagesMs: {}
      }))
      const outcome = await session.serve(cell, record, async () => ok())
      expect(outcome.status).toBe('ok')
      served.push({
        scenario: name,
        pid: record.sutProcess.pid,
        protocol: record.sutProcess.ready?.protocol,
        servedBefore: record.sutProcess.servedBefore
      })
    }
  } finally {
    await session.end()
    certificate.dispose()
  }
  expect(served.map(({ scenario, protocol, servedBefore }) => ({ scenario, protocol, servedBefore }))).toEqual([
    { scenario: 'json', protocol: 'http1', servedBefore: 0 },
    { scenario: 'ws-echo', protocol: 'http1', servedBefore: 1 },
    { scenario: 'tls-json', protocol: 'tls', servedBefore: 0 },
    { scenario: 'h2-json', protocol: 'h2', servedBefore: 0 },
    { scenario: 'h2c-json', protocol: 'h2c', servedBefore: 0 },
    { scenario: 'plaintext', protocol: 'http1', servedBefore: 0 }
  ])
  expect(served[1].pid).toBe(served[0].pid)
  expect(new Set(served.map((cell) => cell.pid)).size).toBe(5)
}, 60_000)

afterAll(() => runs.expectNoneLeft(expect))

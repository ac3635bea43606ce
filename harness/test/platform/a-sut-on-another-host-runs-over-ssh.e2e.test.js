// @ts-check
// dyno with the SUT on a host of its own, reached with OpenSSH: "hosts" made of network namespaces on this machine, joined to it
// by veth pairs, each running Debian's sshd with a key made for the test; the hosts' checkout of dyno is one directory (they share
// the filesystem), made by one `dyno host prepare`. Runs there are verified and loaded from here, the link is measured, and however
// a run ends (normally, Ctrl-C in a terminal, kill -9 of dyno, the link dropping), nothing of it is left on either side. Nothing here
// judges a measured figure, so it runs beside the other journeys; the latency a delay on the link adds is judged alone, in
// a-delay-on-the-link-shows-in-the-latency.alone.test.js.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHECKOUT_STAMP_FILE } from '../../src/platform/hosts/remote/checkout-stamp.js'
import { readRun } from '../../src/records/read-run.js'
import { dynoRun } from '../support/dyno-run.js'
import { processesOfRuns, trackRuns } from '../support/leftover-processes.js'
import { createNamespaceHosts } from '../support/namespace-hosts.js'
import { missing, skipNote } from '../support/needs.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runCli } from '../support/run-cli.js'
import { start } from '../support/started-command.js'
import { writtenRun } from '../support/written-run.js'

const runs = trackRuns()
const absent = missing('hosts', 'redis', 'native')
/** A host's install builds the native engine and every SUT: minutes on a fresh checkout. */
const PREPARE_TIMEOUT_MS = 15 * 60_000

/** @type {Awaited<ReturnType<typeof createNamespaceHosts>>} */
let lab
/** @type {NodeJS.ProcessEnv} */
let env

/** @param {string} out @returns {{ runDir: string, index: any, records: any[] }} the one run in `out` */
function readOnlyRun (out) {
  const [runId] = readdirSync(out)
  runs.add(runId)
  const runDir = join(out, runId)
  return { runDir, ...writtenRun(runDir) }
}

/** @returns {string[]} what runs in the SUT host's namespace besides its sshd and the sessions it serves */
const leftOnHost = () => lab.hosts[0].pids().flatMap((pid) => {
  try {
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()
    return command.startsWith('sshd') ? [] : [`${pid} ${command}`]
  } catch {
    return []
  }
})

/** Waits, bounded, until nothing of the runs is left here or on the host. @param {string[]} runIds */
async function nothingLeft (runIds, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline && (leftOnHost().length > 0 || processesOfRuns(runIds).length > 0)) await delay(200)
  return { onHost: leftOnHost(), ofRuns: processesOfRuns(runIds) }
}

// One round, and no cell measured again for disturbance: the "hosts" are namespaces of this machine, so the SUT host's processes share
// the generator's cpus, which on two machines they would not.
const runArgs = (/** @type {string} */ out, /** @type {import('../support/dyno-run.js').RunFields} */ fields) =>
  dynoRun({ sutHost: lab.hosts[0].url, engine: 'native', repeats: 1, disturbedAbovePct: 99, out, ...fields })

describe.skipIf(absent)(`a SUT on another host, over SSH${skipNote(absent)}`, () => {
  beforeAll(async () => {
    // The SUT's host, and two hosts the load can come from.
    lab = await createNamespaceHosts({ tag: 'st', count: 3 })
    env = { ...process.env, DYNO_SSH_CONFIG: lab.sshConfig }
    // One install serves the three: their checkout is one directory of the filesystem they share (namespace-hosts.js).
    const prepared = await runCli(['host', 'prepare', lab.hosts[0].url], { env, timeoutMs: PREPARE_TIMEOUT_MS })
    expect(prepared.stderr + prepared.stdout).toMatch(/installed in/)
    expect(prepared.code).toBe(0)
  }, PREPARE_TIMEOUT_MS + 60_000)

  afterAll(async () => {
    await lab?.remove()
    runs.expectNoneLeft(expect)
  })

  it('refuses, before starting anything, a host it cannot reach, one whose key is unknown, and one at another commit', async () => {
    const out = mkdtempSync(join(tmpdir(), 'dyno-hosts-refused-'))
    const unreachable = await runCli(dynoRun({ sutHost: 'ssh://root@10.254.254.254', out, frameworks: 'node-http' }),
      { env: { ...env, DYNO_SSH_CONFIG: lab.sshConfig }, timeoutMs: 60_000 })
    expect(unreachable.code).toBe(2)
    expect(unreachable.stderr).toContain('DYNO_ERR_HOST_UNREACHABLE: cannot reach ssh://root@10.254.254.254 over SSH')

    const strangerConfig = join(lab.sshDir, 'stranger_config')
    writeFileSync(
      strangerConfig,
      readFileSync(lab.sshConfig, 'utf8').replace(/UserKnownHostsFile .*/, `UserKnownHostsFile ${join(lab.sshDir, 'none')}`)
    )
    const unknownKey = await runCli(runArgs(out, { frameworks: 'node-http' }), { env: { ...env, DYNO_SSH_CONFIG: strangerConfig } })
    expect(unknownKey.code).toBe(2)
    expect(unknownKey.stderr).toMatch(/DYNO_ERR_HOST_UNREACHABLE: cannot reach .* over SSH: .*Host key verification failed/)

    const stampFile = join(lab.hosts[0].dir, CHECKOUT_STAMP_FILE)
    const stamp = readFileSync(stampFile, 'utf8')
    writeFileSync(stampFile, JSON.stringify({ ...JSON.parse(stamp), commit: '0'.repeat(40) }))
    try {
      const otherCommit = await runCli(runArgs(out, { frameworks: 'node-http' }), { env })
      expect(otherCommit.code).toBe(2)
      expect(otherCommit.stderr).toMatch(
        new RegExp(`DYNO_ERR_HOST_NOT_PREPARED: .* is at commit ${'0'.repeat(40)}, this checkout at [0-9a-f]{40}`)
      )
    } finally {
      writeFileSync(stampFile, stamp)
    }
    expect(readdirSync(out)).toEqual([])
    expect(leftOnHost()).toEqual([])
  })

  it('runs node-http and fastify on json, plaintext and every database there, all ok, with both hosts and the link in the results ' +
    'and reports', async () => {
    const out = mkdtempSync(join(tmpdir(), 'dyno-hosts-run-'))
    const bytesBefore = lab.hosts[0].linkBytes()
    const result = await runCli(
      runArgs(out, { frameworks: 'node-http,fastify', scenarios: 'json,plaintext,redis,sqlite,postgres', durationSec: 2, warmupSec: 1 }),
      { env, timeoutMs: 180_000 }
    )
    expect(result.code, result.stderr).toBe(0)
    const { runDir, index, records } = readOnlyRun(out)
    expect(records.map((record) => `${record.sut.name} ${record.scenario.name} ${record.status}`).sort()).toEqual([
      'fastify json ok',
      'fastify plaintext ok',
      'fastify postgres ok',
      'fastify redis ok',
      'fastify sqlite ok',
      'node-http json ok',
      'node-http plaintext ok',
      'node-http postgres ok',
      'node-http redis ok',
      'node-http sqlite ok'
    ])
    // Every request and response crossed the link: at least the responses' bytes came in over it, and the requests' went out.
    const bytesAfter = lab.hosts[0].linkBytes()
    const responses = records.reduce((sum, record) => sum + record.warmup.requests + record.summary.requests, 0)
    expect(bytesAfter.rxBytes - bytesBefore.rxBytes).toBeGreaterThan(responses * 60)
    expect(bytesAfter.txBytes - bytesBefore.txBytes).toBeGreaterThan(responses * 30)
    expect(index.env.hosts.map((/** @type {any} */ host) => [host.name, host.role, host.address])).toEqual([
      [lab.hosts[0].url.replace(/\/$/, ''), 'sut', lab.hosts[0].address],
      ['local', 'load', '127.0.0.1']
    ])
    for (const host of index.env.hosts) {
      expect(host.fingerprint).toMatchObject({ cpu: { cores: expect.any(Number) }, node: process.version })
    }
    expect(index.env.services.redis.url).toContain(lab.hosts[0].address)
    expect(index.env.services.postgres.url).toContain(lab.hosts[0].address)
    // The queries were counted by the server on the host: one per request.
    for (const record of records.filter((entry) => entry.scenario.name === 'postgres' || entry.scenario.name === 'redis')) {
      expect(record.serverCheck.withinBounds).toBe(true)
    }
    expect(index.env.services.sqlite.url).toMatch(new RegExp(`^${index.env.hosts[0].name}:/.*dyno-sqlite-.*/world.sqlite$`))
    expect(existsSync(index.env.services.sqlite.url.split(':').pop())).toBe(false) // the hosts share this filesystem: removed at the end
    for (const record of records) {
      expect(schemaErrors('result', record)).toEqual([])
      expect(record.sutProcess.host).toBe(index.env.hosts[0].name)
      expect(record.links).toMatchObject([{ from: 'local', to: index.env.hosts[0].name, samples: 300 }])
      expect(record.links[0].medianUs).toBeGreaterThan(0)
      expect(record.links[0].p99Us).toBeGreaterThanOrEqual(record.links[0].medianUs)
      // CPU and memory of the SUT, read on its host from /proc and carried over the SSH session.
      expect(record.summary.resources.targets.sut.cpuSec).toBeGreaterThan(0)
      expect(record.summary.resources.targets.sut.peakRssBytes).toBeGreaterThan(10 * 2 ** 20)
      expect(record.load.pinning).toMatchObject({ pinned: true, sutCpus: [0] })
    }
    const report = readFileSync(join(runDir, 'report.md'), 'utf8')
    expect(report).toContain(`- SUT host ${index.env.hosts[0].name} (${lab.hosts[0].address})`)
    expect(report).toMatch(/- round trip this machine → SUT host: median \d+ µs, p99 \d+ µs/)
    expect(readFileSync(join(runDir, 'report.html'), 'utf8')).toContain('<th>link</th>')
    expect(await nothingLeft([index.runId])).toEqual({ onHost: [], ofRuns: [] })
  }, 240_000)

  it('counts instructions on the host, where valgrind runs the SUT', async () => {
    const out = mkdtempSync(join(tmpdir(), 'dyno-hosts-count-'))
    // A fixed warm-up (the bound equal to it): this test is about where the count runs, not when a count settles.
    const counting = {
      measure: 'instructions', countWarmupRequests: 500, countWarmupBoundRequests: 500, countWindowRequests: 100, countWindows: 4
    }
    const result = await runCli(dynoRun({ sutHost: lab.hosts[0].url, out, frameworks: 'node-http', scenarios: 'json', ...counting }),
      { env, timeoutMs: 180_000 })
    expect(result.code, result.stderr).toBe(0)
    const { runDir, index, records: [record] } = readOnlyRun(out)
    expect(schemaErrors('result', record)).toEqual([])
    expect(record.status).toBe('ok')
    expect(record.sutProcess.host).toBe(index.env.hosts[0].name)
    expect(record.instructions.windows).toHaveLength(4)
    expect(record.instructions.instructionsPerRequest).toBeGreaterThan(10_000)
    expect(record.instructions.checks).toMatchObject({ responses: 900, mismatches: 0, errors: 0 })
    // The host read its SUT's perf map where V8 wrote it, so its generated code is named, and the list came back beside the result.
    expect(record.instructions.functions.generatedCodeNamed).toBe(true)
    const functions = readRun(runDir).records[0].instructions?.functions
    if (!functions || functions.layers === null) throw new Error(`no functions: ${functions?.reason}`)
    expect(functions.functions.some((fn) => fn.layer === 'app' && /packages\/node-http\/src\//.test(String(fn.file)))).toBe(true)
    expect(functions.layers.node).toBeGreaterThan(0)
    expect(await nothingLeft([index.runId])).toEqual({ onHost: [], ofRuns: [] })
  }, 240_000)

  it('loads from two hosts at once, each with its share, their counts adding up to the merged total, the round trip ' +
    'measured from each, over TLS too with the run\'s certificate copied to each host and removed after', async () => {
    const out = mkdtempSync(join(tmpdir(), 'dyno-hosts-two-loads-'))
    // The hosts' copies of the certificate go to their own temporary directory (/tmp: the namespaces share this filesystem).
    const certificateCopies = () => readdirSync('/tmp').filter((name) => name.startsWith('dyno-tls-')).sort()
    const copiesBefore = certificateCopies()
    const result = await runCli(
      runArgs(out, {
        loadHosts: `${lab.hosts[1].url},${lab.hosts[2].url}`,
        frameworks: 'node-http',
        scenarios: 'json,tls-json',
        connections: 11,
        durationSec: 3,
        warmupSec: 1
      }),
      { env, timeoutMs: 120_000 }
    )
    expect(result.code, result.stderr).toBe(0)
    const { index, records } = readOnlyRun(out)
    expect(records.map((/** @type {any} */ record) => record.scenario.name).sort()).toEqual(['json', 'tls-json'])
    const names = [lab.hosts[1].url, lab.hosts[2].url].map((url) => url.replace(/\/$/, ''))
    for (const record of records) {
      expect(schemaErrors('result', record)).toEqual([])
      expect(record.status, record.reason).toBe('ok')
      expect(record.links.map((/** @type {any} */ link) => link.from)).toEqual(names)
    }
    const tls = records.find((/** @type {any} */ record) => record.scenario.name === 'tls-json')
    expect(tls.summary.protocolNegotiated).toBe('http/1.1 over TLSv1.3')
    expect(certificateCopies()).toEqual(copiesBefore)
    for (const phase of records.flatMap((/** @type {any} */ record) => [record.warmup, record.summary])) {
      expect(phase.loadHosts.map((/** @type {any} */ share) => [share.name, share.connections])).toEqual([
        [names[0], 6],
        [names[1], 5]
      ])
      for (const share of phase.loadHosts) expect(share.requests).toBeGreaterThan(0)
      expect(phase.loadHosts.reduce((/** @type {number} */ sum, /** @type {any} */ share) => sum + share.requests, 0)).toBe(phase.requests)
      expect(phase.timeseries.reduce((/** @type {number} */ sum, /** @type {any} */ window) => sum + window.requests, 0)).toBe(
        phase.requests
      )
    }
    expect(index.env.hosts.map((/** @type {any} */ host) => host.role)).toEqual(['sut', 'load', 'load'])
    expect(index.options.loadHosts.map((/** @type {any} */ host) => host.name)).toEqual(names)
    expect(await nothingLeft([index.runId])).toEqual({ onHost: [], ofRuns: [] })
  }, 180_000)

  it('leaves nothing on either side after Ctrl-C in a terminal, kill -9 of dyno, or the link dropping, and keeps what ' +
    'was measured', async () => {
    const measuring = /\[1\/2\] node-http × \w+\s+measure/
    const moreFields = { frameworks: 'node-http', scenarios: 'json,plaintext', durationSec: 20, warmupSec: 1 }

    const ctrlCOut = mkdtempSync(join(tmpdir(), 'dyno-hosts-ctrl-c-'))
    const command = ['stty cols 160 rows 50;', 'node', 'harness/bin/dyno.js', ...runArgs(ctrlCOut, moreFields)].join(' ')
    const typed = start('script', ['-qefc', command, '/dev/null'], { env })
    await typed.waitFor(measuring, 60_000)
    await delay(1000)
    typed.child.stdin?.write('\x03')
    await typed.exited
    const ctrlC = readOnlyRun(ctrlCOut)
    expect(ctrlC.index.status).toBe('interrupted')
    expect(ctrlC.records[0]).toMatchObject({ status: 'failed', errorCode: 'DYNO_ERR_INTERRUPTED', summary: { stoppedEarly: true } })
    expect(await nothingLeft([ctrlC.index.runId])).toEqual({ onHost: [], ofRuns: [] })

    const killedOut = mkdtempSync(join(tmpdir(), 'dyno-hosts-kill-9-'))
    const killed = start(process.execPath, ['harness/bin/dyno.js', ...runArgs(killedOut, moreFields)], { env })
    await killed.waitFor(measuring, 60_000)
    killed.child.kill('SIGKILL')
    await killed.exited
    const [killedRunId] = readdirSync(killedOut)
    runs.add(killedRunId)
    expect(existsSync(join(killedOut, killedRunId, 'run.json'))).toBe(true)
    // Without dyno, its SSH sessions end: the guard on the host stops the SUT and Redis; the engine here sees its parent gone.
    expect(await nothingLeft([killedRunId])).toEqual({ onHost: [], ofRuns: [] })

    const droppedOut = mkdtempSync(join(tmpdir(), 'dyno-hosts-dropped-'))
    const dropped = start(process.execPath, ['harness/bin/dyno.js', ...runArgs(droppedOut, moreFields)], { env })
    try {
      await dropped.waitFor(measuring, 60_000)
      lab.hosts[0].setLink(false)
      // The guard on the host, hearing no heartbeat, stops what it started there; dyno, hearing nothing from the guard, ends the cell.
      await dropped.waitFor(/failed\s+node-http × \w+/, 30_000)
      expect((await nothingLeft([], 20_000)).onHost).toEqual([])
    } finally {
      lab.hosts[0].setLink(true)
    }
    await dropped.exited
    const drop = readOnlyRun(droppedOut)
    expect(drop.records[0]).toMatchObject({ status: 'failed', errorCode: 'DYNO_ERR_HOST_LOST' })
    expect(drop.records[0].reason).toMatch(
      /no word from .* for \d+\.\d s while SUT node-http ran there: the link to it is gone; the figures measured before are kept/
    )
    expect(drop.records[0].summary.requests).toBeGreaterThan(0)
    expect(await nothingLeft([drop.index.runId])).toEqual({ onHost: [], ofRuns: [] })
  }, 300_000)
})

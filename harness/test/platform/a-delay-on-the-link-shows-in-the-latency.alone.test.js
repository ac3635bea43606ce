// @ts-check
// The link to a SUT on another host is part of what a run measures: a netem delay of 10 ms each way on the link to a namespace host
// shows as about 20 ms more p50 latency than no delay, rounds of each alternated. The effect is a hundred times the spread of a
// 1-connection p50 on this machine (a few tenths of a millisecond, busy or not), so the verdict does not rest on a quiet machine; it
// runs alone all the same, for the link's own time is what it judges. Skipped where the kernel has no netem (this machine's
// has none: see netemMissing), before any host is made or prepared.
import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dynoRun } from '../support/dyno-run.js'
import { trackRuns } from '../support/leftover-processes.js'
import { createNamespaceHosts, netemMissing } from '../support/namespace-hosts.js'
import { missing, skipNote } from '../support/needs.js'
import { runCli } from '../support/run-cli.js'
import { writtenRun } from '../support/written-run.js'

const runs = trackRuns()
const absent = missing('hosts', 'native') ?? netemMissing()
/** A host's install builds the native engine and every SUT: minutes on a fresh checkout. */
const PREPARE_TIMEOUT_MS = 15 * 60_000
/** Each way: the round trip gains twice this. */
const DELAY_MS = 10

/** @type {Awaited<ReturnType<typeof createNamespaceHosts>>} */
let lab
/** @type {NodeJS.ProcessEnv} */
let env

describe.skipIf(absent)(`a delay on the link to a SUT's host${skipNote(absent)}`, () => {
  beforeAll(async () => {
    lab = await createNamespaceHosts({ tag: 'dl', count: 1 })
    env = { ...process.env, DYNO_SSH_CONFIG: lab.sshConfig }
    const prepared = await runCli(['host', 'prepare', lab.hosts[0].url], { env, timeoutMs: PREPARE_TIMEOUT_MS })
    expect(prepared.code, prepared.stderr).toBe(0)
  }, PREPARE_TIMEOUT_MS + 60_000)

  afterAll(async () => {
    await lab?.remove()
    runs.expectNoneLeft(expect)
  })

  it(`of ${DELAY_MS} ms each way shows as about ${2 * DELAY_MS} ms more p50 latency than no delay`, async () => {
    /** @type {Record<string, number[]>} */
    const p50 = { none: [], delayed: [] }
    try {
      for (const side of ['none', 'delayed', 'delayed', 'none']) {
        lab.hosts[0].delayLink(side === 'delayed' ? DELAY_MS : 0)
        const out = mkdtempSync(join(tmpdir(), `dyno-link-delay-${side}-`))
        const result = await runCli(dynoRun({
          sutHost: lab.hosts[0].url,
          engine: 'native',
          repeats: 1,
          disturbedAbovePct: 99,
          frameworks: 'node-http',
          scenarios: 'json',
          connections: 1,
          durationSec: 2,
          warmupSec: 1,
          out
        }), { env, timeoutMs: 120_000 })
        expect(result.code, result.stderr).toBe(0)
        const [runId] = readdirSync(out)
        runs.add(runId)
        p50[side].push(writtenRun(join(out, runId)).records[0].summary.latencyMs.p50)
      }
    } finally {
      lab.hosts[0].delayLink(0)
    }
    const mean = (/** @type {number[]} */ values) => values.reduce((sum, value) => sum + value, 0) / values.length
    const addedMs = mean(p50.delayed) - mean(p50.none)
    expect(addedMs, JSON.stringify(p50)).toBeGreaterThan(0.8 * 2 * DELAY_MS)
    expect(addedMs, JSON.stringify(p50)).toBeLessThan(1.5 * 2 * DELAY_MS)
  }, 300_000)
})

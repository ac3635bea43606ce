// @ts-check
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it, vi } from 'vitest'
import { eventLoopEnv, readEventLoopSamples, summarizeEventLoop } from '../../src/platform/resources/event-loop-samples.js'
import { runEnv } from '../../src/platform/env/run-env.js'
import { startSut } from '../../src/subjects/sut-process/start-sut.js'
import { discoverSuts } from '../../src/subjects/suts/discover-suts.js'
import { collectLines } from '../support/child-lines.js'
import { trackRuns } from '../support/leftover-processes.js'

const STALLS = fileURLToPath(new URL('../fixtures/resources/stalls.js', import.meta.url))
const runs = trackRuns()
const runId = runs.add(`test-event-loop-${randomUUID()}`)
const dir = mkdtempSync(join(tmpdir(), 'dyno-event-loop-'))

it('sees each stall of the loop, writes nothing to stdout and lets the process end by itself', async () => {
  const file = join(dir, 'stalls.jsonl')
  const startedAtMs = Date.now()
  const child = spawn(process.execPath, [STALLS], {
    stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...runEnv(runId), ...eventLoopEnv({ file, intervalMs: 100 }) }
  })
  const stdout = collectLines(/** @type {import('node:stream').Readable} */ (child.stdout))
  const stderr = collectLines(/** @type {import('node:stream').Readable} */ (child.stderr))
  await stdout.waitFor(/^stalls: done$/)
  const doneAt = Date.now()
  const [code] = await once(child, 'exit')
  const exitedAfterMs = Date.now() - doneAt
  // No timer of the preload kept it alive (one of its 100 ms intervals, ref'd, would keep it up for good): it ended within a second,
  // stretched by how slow this machine is now, read from a bare Node's whole life measured here.
  const bareStartedAt = Date.now()
  await once(spawn(process.execPath, ['-e', '']), 'exit')
  expect(exitedAfterMs).toBeLessThan(2000 + 5 * (Date.now() - bareStartedAt))
  expect(code).toBe(0)
  expect(stdout.lines).toEqual(['stalls: started', 'stalls: done'])
  expect(stderr.lines).toEqual([])

  const samples = readEventLoopSamples(file)
  expect(samples.length).toBeGreaterThanOrEqual(8)
  expect(new Set(samples.map((sample) => sample.pid))).toEqual(new Set([child.pid]))
  // Each of the three 200 ms stalls shows; a busy machine may add a delay of its own (a process descheduled that long is a delay of
  // its loop too). The quiet intervals read far below a stall: a timer of 10 ms late by tens of ms under a busy machine is still
  // under half a stall.
  expect(samples.filter((sample) => sample.maxMs >= 150).length).toBeGreaterThanOrEqual(3)
  expect(samples.filter((sample) => sample.maxMs < 100).length).toBeGreaterThanOrEqual(2)
  for (const sample of samples) expect(sample.p50Ms).toBeLessThanOrEqual(sample.p99Ms)

  const report = summarizeEventLoop(readEventLoopSamples(file, { fromMs: startedAtMs }), { startedAtMs, intervalMs: 100 })
  expect(report.maxMs).toBeGreaterThanOrEqual(150)
  expect(report.samples[0].tMs).toBeLessThan(5000)
})

it('gives no samples for a file never written, and skips a torn line', () => {
  expect(readEventLoopSamples(join(dir, 'missing.jsonl'))).toEqual([])
  expect(summarizeEventLoop([], { startedAtMs: 0, intervalMs: 100 })).toEqual({
    intervalMs: 100,
    meanMs: null,
    worstP99Ms: null,
    maxMs: null,
    samples: []
  })
})

// The preload is injected through NODE_OPTIONS: Node SUTs only (Bun, Deno, Go and Python report no event loop).
const suts = discoverSuts().filter((sut) => !sut.skipReason && sut.runtimeKind === 'node')

it.each(suts.map((sut) => [sut.name, sut]))('runs inside %s, whose ready line still arrives', async (name, sut) => {
  const file = join(dir, `${name}.jsonl`)
  const running = await startSut(sut, {
    readyTimeoutSec: 30,
    stopGraceSec: 5,
    env: { ...runEnv(runId), ...eventLoopEnv({ file, intervalMs: 100 }) }
  })
  try {
    if ('uwsNative' in running.ready) expect(running.ready.uwsNative).toBe(true)
    for (let i = 0; i < 20; i++) {
      const response = await fetch(`http://127.0.0.1:${running.port}/json`)
      expect(response.status).toBe(200)
      await response.text()
    }
    await vi.waitFor(
      () => expect(readEventLoopSamples(file).filter((sample) => sample.pid === running.pid).length).toBeGreaterThanOrEqual(2),
      {
        timeout: 5000,
        interval: 50
      }
    )
  } finally {
    await running.stop(5000)
  }
})

afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
  runs.expectNoneLeft(expect)
})

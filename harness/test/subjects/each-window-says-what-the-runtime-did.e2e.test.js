// @ts-check
// With `--runtime-events on`, every window of a cell says what the SUT's runtime did in it: for a Node SUT, the collections by kind with
// their pause (perf_hooks), the functions V8 optimised by tier and the deoptimisations by reason (the V8 log), and the event-loop delay;
// for a Go SUT its collector's cycles (gctrace); for a runtime that tells nothing, the reason, never zeros. (A SUT that keeps every
// request it served, classified from its series: a-sut-that-keeps-every-request-slows-down-with-its-collector.alone.test.js.)
import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PACKAGES_DIR } from '../../src/platform/paths.js'
import { recordRuntimeEvents } from '../../src/subjects/runtime-events/runtime-event-recording.js'
import { loadSut } from '../../src/subjects/suts/discover-suts.js'
import { resolveSubjects } from '../../src/subjects/suts/resolve-subjects.js'
import { runCli } from '../support/run-cli.js'
import { trackRuns } from '../support/leftover-processes.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runInTempDir } from '../support/run-fixture.js'

const runs = trackRuns()
const EVENTS_ON = { runtimeEvents: true, engine: /** @type {const} */ ('native') }

/** @param {any[]} windows @param {(window: any) => number} value */
const sum = (windows, value) => windows.reduce((total, window) => total + value(window), 0)

describe('the runtime events of every window', () => {
  it("counts what V8 and its collector did in each window of a Node SUT, and the event-loop delay, with the SUT's " +
    'stdout untouched', async () => {
    const {
      written: [record]
    } = await runInTempDir({
      runs,
      suts: [loadSut(join(PACKAGES_DIR, 'fastify'))],
      scenarios: ['json'],
      connections: 20,
      load: { ...EVENTS_ON, warmupSec: 1, durationSec: 2 }
    })
    expect(record.status).toBe('ok')
    expect(schemaErrors('result', record)).toEqual([])
    for (const phase of [record.warmup, record.summary]) {
      const events = phase.runtimeEvents
      expect(events).toMatchObject({ source: 'v8', reason: null })
      expect(events.windows).toHaveLength(phase.timeseries.length)
      expect(Object.keys(events.windows[0].gc)).toEqual(['minor', 'major', 'incremental', 'weak callbacks'])
      // The totals are the windows' sums: every event counted once, in the window that holds it.
      expect(events.totals.optimized.turbofan).toBe(sum(events.windows, (window) => window.optimized.turbofan))
      expect(events.totals.gc.minor.count).toBe(sum(events.windows, (window) => window.gc.minor.count))
      expect(events.windows.filter((/** @type {any} */ window) => window.eventLoopDelay !== null).length).toBeGreaterThanOrEqual(
        phase.timeseries.length - 2
      )
      // The harness reads the threads' cpu from /proc: the main thread serves, and each window's cpu is at most the window's time.
      expect(events.totals.threadCpuMs.mainMs).toBeGreaterThan(0)
      for (const window of events.windows.slice(0, -1)) expect(window.threadCpuMs.mainMs).toBeLessThanOrEqual(250 + 20)
    }
    // Under load from the first request, V8 compiles the hot path: most of it during the warm-up.
    const warmupOptimized = record.warmup.runtimeEvents.totals.optimized
    expect(warmupOptimized.turbofan + warmupOptimized.sparkplug).toBeGreaterThan(10)
    expect(record.summary.runtimeEvents.totals.gc.minor.count).toBeGreaterThan(0)
    for (const group of record.summary.runtimeEvents.deoptimizations) expect(group.fn).not.toBe('')
    expect(record.classification).toMatchObject({ classification: null, windows: expect.any(Number) })
    expect(record.classification.reason).toMatch(/the classification needs 24 \(6 s at 250 ms windows/)
  }, 60_000)

  it('reads a Go SUT\'s collector from its gctrace, and reports no compilation it does not have', async (context) => {
    const [goGin] = await resolveSubjects([loadSut(join(PACKAGES_DIR, 'go-gin'))], { runtimes: ['node'], workers: 1 })
    if (goGin.skipReason || goGin.buildFailure) {
      if (process.env.CI === 'true') throw new Error(`go-gin did not build under CI=true: ${goGin.skipReason ?? goGin.buildFailure}`)
      context.skip(`go-gin is not built here: ${goGin.skipReason ?? goGin.buildFailure}`)
    }
    const {
      written: [record]
    } = await runInTempDir({ runs, suts: [goGin], scenarios: ['json'], connections: 20, load: { ...EVENTS_ON, durationSec: 2 } })
    expect(record.status).toBe('ok')
    const events = record.summary.runtimeEvents
    expect(events).toMatchObject({
      source: 'go-gctrace',
      reason: null,
      deoptimizations: null,
      totals: { optimized: null, deoptimized: null }
    })
    expect(events.totals.gc.cycle.count).toBeGreaterThan(0)
    expect(events.windows.every((/** @type {any} */ window) => window.optimized === null && window.eventLoopDelay === null)).toBe(true)
  }, 60_000)
})

describe('a runtime that cannot report', () => {
  it('records the reason for Python, for a run without the option, and for a SUT on another host, never zeros', () => {
    const window = { startMs: 0, durationMs: 250, requests: 10, requestsPerSec: 40, latencyMs: null, errors: 0 }
    const read = (/** @type {Parameters<typeof recordRuntimeEvents>[0]} */ options) =>
      recordRuntimeEvents(options).readPhase({ startedAtMs: Date.now(), windows: [window], eventLoopSamples: [] })
    const here = { name: 'local', sharesFilesystem: true }
    expect(read({ runtimeKind: 'python', enabled: true, windowMs: 250, host: here })).toEqual({
      source: null,
      describes: null,
      reason: expect.stringMatching(/gc\.callbacks/),
      windows: null,
      totals: null,
      deoptimizations: null
    })
    expect(read({ runtimeKind: 'node', enabled: false, windowMs: 250, host: here }).reason).toMatch(/--runtime-events off/)
    expect(read({ runtimeKind: 'node', enabled: true, windowMs: 250, host: { name: 'ssh://sut-host', sharesFilesystem: false } }).reason)
      .toMatch(/ran on ssh:\/\/sut-host/)
    expect(read({ runtimeKind: 'bun', enabled: true, windowMs: 250, host: here }).windows).toBeNull()
  })

  it('refuses `--profile sustained` shorter than the classification\'s series, naming the minimum, before anything starts', async () => {
    const out = mkdtempSync(join(tmpdir(), 'dyno-sustained-'))
    const result = await runCli(['run', '--profile', 'sustained', '--frameworks', 'node-http', '--duration', '5', '--disturbed-above', '99',
      '--out', out])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('DYNO_ERR_INVALID_OPTION')
    expect(result.stderr).toMatch(/needs at least 24 of them \(6 s of load\); warm-up 0 s and --duration 5 s give 20/)
    expect(readdirSync(out)).toEqual([])
  }, 30_000)
})

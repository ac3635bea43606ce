// @ts-check
// What the runtimes write is read as they write it (V8's log lines, Go's gctrace lines), put on the epoch clock by the preload's anchor,
// counted in the window that holds each event, and set beside a cell's change points: the events before and after its steady state.
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { classifyCell } from '../../src/judging/cell-classification.js'
import { deoptCategory } from '../../src/subjects/runtime-events/deopt-categories.js'
import { parseGoGcLine } from '../../src/subjects/runtime-events/go-gc-trace.js'
import { phaseRuntimeEvents } from '../../src/subjects/runtime-events/phase-runtime-events.js'
import { RUNTIME_EVENT_SOURCES } from '../../src/subjects/runtime-events/runtime-event-sources.js'
import { threadCpuBetween } from '../../src/subjects/runtime-events/thread-cpu-sampler.js'
import { ANCHOR_MARK, createV8LogReader } from '../../src/subjects/runtime-events/v8-log.js'

const dir = mkdtempSync(join(tmpdir(), 'dyno-v8-log-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the V8 log', () => {
  it('reads optimisations by tier and deoptimisations with their function, as the file grows, on the anchor\'s clock', () => {
    const file = join(dir, 'isolate-0x1-42-v8.log')
    // Lines as Node 20's V8 writes them (shortened): the anchor's compilation, then the functions, a move, a deoptimisation.
    writeFileSync(file, [
      'v8-version,11,3,244,8,-node.38,0',
      'code-creation,JS,10,1000,0xa0,20,onRequest /app/app.js:3:10,0xb0,~',
      'code-creation,Eval,10,2000,0xa1,6, :1:1,0xb1,~',
      `script-source,82,<unknown>,(function anonymous(\\n) {\\n/*${ANCHOR_MARK}*/ return 0\\n})`,
      'code-creation,JS,13,5000,0xa2,300,onRequest /app/app.js:3:10,0xb0,^',
      'code-creation,JS,13,9000,0xa3,900,serialize /app/json.js:1:1,0xb2,*',
      ''
    ].join('\n'))
    const reader = createV8LogReader(file)
    reader.read()
    expect(reader.anchorLogUs).toBe(2000)
    expect(reader.optimized).toEqual([
      { logUs: 5000, tier: 'sparkplug', fn: 'onRequest /app/app.js:3:10' },
      { logUs: 9000, tier: 'turbofan', fn: 'serialize /app/json.js:1:1' }
    ])
    // A torn line is kept until its end arrives; a code move keeps the function's name for the deoptimisation that names the new address.
    appendFileSync(file, 'code-move,0xa3,0xc3\ncode-deopt,12000,900,0xc3,0,55,deopt-eager,</app/json.js:2:5>,wrong map\ncode-crea')
    reader.read()
    expect(reader.deopts).toEqual([
      {
        logUs: 12000,
        kind: 'deopt-eager',
        reason: 'wrong map',
        category: 'shape or type changed',
        fn: 'serialize /app/json.js:1:1',
        position: '/app/json.js:2:5'
      }
    ])
    appendFileSync(file, 'tion,JS,13,15000,0xa4,90,escaped\\x2Cname /app/a.js:1:1,0xb3,+\n')
    reader.read()
    expect(reader.optimized.at(-1)).toEqual({ logUs: 15000, tier: 'maglev', fn: 'escaped,name /app/a.js:1:1' })
  })

  it('sorts V8\'s reasons into categories, and keeps an unknown one as other', () => {
    expect(deoptCategory('Insufficient type feedback for call')).toBe('insufficient feedback')
    expect(deoptCategory('not a Smi')).toBe('shape or type changed')
    expect(deoptCategory('out of bounds')).toBe('value out of range')
    expect(deoptCategory('code dependencies')).toBe('dependency changed')
    expect(deoptCategory('a reason from a later V8')).toBe('other')
  })
})

describe('Go\'s gctrace', () => {
  it('reads a cycle\'s time since the start and its stop-the-world pause, and nothing from other lines', () => {
    const line =
      'gc 12 @3.456s 2%: 0.021+1.2+0.015 ms clock, 0.042+0.3/0.9/0.1+0.030 ms cpu, 4->4->1 MB, 5 MB goal, 0 MB stacks, 0 MB globals, 2 P'
    expect(parseGoGcLine(line))
      .toEqual({ sinceStartMs: 3456, pauseMs: 0.036, concurrentMarkMs: 1.2, forced: false })
    const forced =
      'gc 3 @0.100s 0%: 0.010+0.5+0.002 ms clock, 0.02+0/0.1/0+0.004 ms cpu, 4->4->0 MB, 4 MB goal, 0 MB stacks, 0 MB globals, 2 P (forced)'
    expect(parseGoGcLine(forced)).toMatchObject({ forced: true })
    expect(parseGoGcLine('listening on 127.0.0.1:8080')).toBeNull()
  })
})

describe('the windows of a phase', () => {
  const windows = [0, 250, 500, 750].map((startMs) => ({
    startMs,
    durationMs: 250,
    requests: 100,
    requestsPerSec: 400,
    latencyMs: null,
    errors: 0
  }))
  const startedAtMs = 1_000_000

  it('counts each event in the window that holds it, leaves out those outside the phase, and groups the deoptimisations', () => {
    const events = {
      gc: [{ atMs: startedAtMs + 10, kind: 'minor', pauseMs: 1.5 }, { atMs: startedAtMs + 260, kind: 'major', pauseMs: 12 },
        { atMs: startedAtMs - 5, kind: 'minor', pauseMs: 9 }],
      optimized: [{ atMs: startedAtMs + 20, tier: 'turbofan', fn: 'a' }, { atMs: startedAtMs + 30, tier: 'sparkplug', fn: 'b' },
        { atMs: startedAtMs + 2000, tier: 'turbofan', fn: 'c' }],
      deopts: [1, 2].map((n) => ({
        atMs: startedAtMs + 600 + n, kind: 'deopt-eager', reason: 'wrong map', category: 'shape or type changed', fn: 'a', position: 'x:1'
      })),
      refused: null
    }
    const sample = (/** @type {number} */ endMs) => ({ pid: 1, tMs: startedAtMs + endMs, meanMs: 0.5, p50Ms: 0.4, p99Ms: 2, maxMs: 3 })
    const eventLoopSamples = [sample(251), sample(502)]
    const phase = phaseRuntimeEvents(RUNTIME_EVENT_SOURCES.node, events, {
      startedAtMs,
      windows,
      eventLoopSamples,
      eventLoopIntervalMs: 250
    })
    expect(
      phase.windows?.map((window) => [window.gc.minor.count, window.gc.major.count, window.optimized?.turbofan, window.deoptimized?.count])
    ).toEqual([
      [1, 0, 1, 0],
      [0, 1, 0, 0],
      [0, 0, 0, 2],
      [0, 0, 0, 0]
    ])
    expect(phase.windows?.map((window) => window.eventLoopDelay?.p99Ms ?? null)).toEqual([2, 2, null, null])
    expect(phase.totals).toMatchObject({
      gc: { minor: { count: 1, pauseMs: 1.5 }, major: { count: 1, pauseMs: 12 } }, optimized: { turbofan: 1, sparkplug: 1 }
    })
    expect(phase.deoptimizations).toEqual([
      { fn: 'a', position: 'x:1', kind: 'deopt-eager', category: 'shape or type changed', reason: 'wrong map', count: 2, firstMs: 601 }
    ])
  })

  it('writes null, not zero, for what a runtime does not report', () => {
    const phase = phaseRuntimeEvents(RUNTIME_EVENT_SOURCES.go, { gc: [], optimized: [], deopts: [], refused: null },
      { startedAtMs, windows, eventLoopSamples: [], eventLoopIntervalMs: null })
    expect(phase.windows?.[0]).toEqual({
      startMs: 0,
      gc: { cycle: { count: 0, pauseMs: 0 }, forced: { count: 0, pauseMs: 0 } },
      optimized: null,
      deoptimized: null,
      eventLoopDelay: null,
      threadCpuMs: null
    })
    expect(phase.totals).toMatchObject({ optimized: null, deoptimized: null })
    expect(phase.deoptimizations).toBeNull()
  })
})

describe('a cell classified with its runtime\'s events', () => {
  it('finds the steady state after a warm-up and says what share of the optimisations came before it', () => {
    // 32 windows: 8 slow ones (2 ms per request) while V8 compiles, then 24 fast ones (1 ms per request).
    const measure = Array.from({ length: 32 }, (_, index) => {
      const requests = index < 8 ? 125 + (index % 2) : 250 + (index % 3)
      const latencyMs = { p50: 250 / requests, p75: 1, p90: 1, p99: 1 }
      return { startMs: index * 250, durationMs: 250, requests, requestsPerSec: requests * 4, latencyMs, errors: 0 }
    })
    const runtime = measure.map((window, index) => ({
      startMs: window.startMs,
      gc: { minor: { count: 1, pauseMs: 0.5 } },
      optimized: { sparkplug: 0, maglev: 0, turbofan: index < 8 ? 9 : (index === 20 ? 2 : 0) },
      deoptimized: { count: index === 3 ? 3 : (index === 20 ? 1 : 0), byCategory: {} },
      eventLoopDelay: null,
      threadCpuMs: { mainMs: 240, othersMs: index < 8 ? 60 : 10 }
    }))
    const cell = classifyCell({ warmup: [], measure, windowMs: 250, runtime: { warmup: [], measure: runtime } })
    expect(cell).toMatchObject({ classification: 'warm-up', throughput: { steadyStartMs: 2000 }, reason: null })
    // Requests that repeat a pattern to the request have almost no noise: PELT also cuts the pattern, where the levels stay one.
    expect(cell.throughput?.changePointsMs).toContain(2000)
    expect(cell.speedup).toBeCloseTo(2, 1)
    expect(cell.aroundSteadyStart).toEqual({
      before: { durationMs: 2000, optimized: 72, deoptimized: 3, collections: 8, gcPauseMs: 4, otherThreadsCpuMs: 480 },
      after: { durationMs: 6000, optimized: 2, deoptimized: 1, collections: 24, gcPauseMs: 12, otherThreadsCpuMs: 240 },
      optimizedBeforePct: 97.3
    })
  })

  it('gives no classification, with the reason, to a series shorter than the minimum', () => {
    const latencyMs = { p50: 1, p75: 1, p90: 1, p99: 1 }
    const measure = Array.from({ length: 10 }, (_, index) => ({
      startMs: index * 250, durationMs: 250, requests: 100, requestsPerSec: 400, latencyMs, errors: 0
    }))
    const cell = classifyCell({ warmup: [], measure, windowMs: 250, runtime: { warmup: null, measure: null } })
    expect(cell).toMatchObject({ classification: null, throughput: null, aroundSteadyStart: null })
    expect(cell.reason).toBe(
      'a series of 10 windows with responses; the classification needs 24 (6 s at 250 ms windows: `--profile sustained`)'
    )
  })
})

describe('the cpu of a process\'s threads', () => {
  it('takes each window\'s share of the main thread\'s and the other threads\' cpu from the samples around it', () => {
    const samples = [
      { atMs: 1000, mainMs: 100, othersMs: 10 },
      { atMs: 1250, mainMs: 340, othersMs: 20 },
      { atMs: 1500, mainMs: 590, othersMs: 120 }
    ]
    expect(threadCpuBetween(samples, 1000, 1250)).toEqual({ mainMs: 240, othersMs: 10 })
    // Between samples, linear: half of each of the two intervals.
    expect(threadCpuBetween(samples, 1125, 1375)).toEqual({ mainMs: 245, othersMs: 55 })
    expect(threadCpuBetween(samples, 900, 1250)).toBeNull()
    expect(threadCpuBetween(samples, 1250, 1600)).toBeNull()
  })
})

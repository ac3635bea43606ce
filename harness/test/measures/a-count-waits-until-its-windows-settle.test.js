// @ts-check
// A count's warm-up goes on, window after window, until its last windows agree within their own spread and V8 compiles nothing in
// them, up to a bound; the rule is named in the count's cache key. The windows are a real count's: express 5.1 on node@24, json,
// counted window by window from request 2,000 (program instructions and V8's compilers' instructions per request, per window).
import { findCallgrind } from '../../src/measures/instructions/counts/callgrind.js'
import { countKey } from '../../src/measures/instructions/counts/count-cache.js'
import { countSettingsFor, INSTRUCTION_COUNT_DEFAULTS } from '../../src/measures/instructions/counts/count-instructions.js'
import { settleStop, settleVerdict, WARMUP_RULE } from '../../src/measures/instructions/counts/count-settle.js'
import { join } from 'node:path'
import { SCENARIOS } from '@dyno/scenarios'
import { describe, expect, it } from 'vitest'
import { PACKAGES_DIR } from '../../src/platform/paths.js'

/** [program, compiler] instructions per request of each window of 750 requests, in order. */
const NODE24_EXPRESS = [
  [241504, 178719], [159517, 2633], [189246, 72408], [173280, 38398], [261407, 242664], [152201, 960], [222312, 159208],
  [194554, 99894], [213078, 145550], [173715, 57545], [164480, 37272], [754600, 775298], [132833, 0], [143666, 24567],
  [133806, 2206], [132684, 0], [132533, 363], [132442, 1], [136593, 8257], [138271, 13105], [132412, 0], [137642, 11773],
  [136019, 8385], [133456, 3014]
].map(([program, compiler]) => ({
  instructionsPerRequest: program,
  programInstructionsPerRequest: program,
  compiler: { instructionsPerRequest: compiler, optimisations: 1, deoptimisations: 0 }
}))

/**
 * Settled windows of express 5.1 on node@22, json (program instructions per request; test/fixtures/timeline-data, record
 * 60651baac64ad08e88d40abd), counted by a dyno that did not split the compilers' part out.
 */
const NODE22_SETTLED = [509836, 518392, 524251, 515272, 520446, 510843, 514429, 515707].map((program) => ({
  instructionsPerRequest: program, programInstructionsPerRequest: program, compiler: null
}))

describe('the settling rule', () => {
  it('takes windows that agree within their spread as settled', () => {
    expect(settleVerdict(NODE22_SETTLED)).toEqual({ settled: true })
  })

  it('refuses windows while a tier-up is in them, naming the window and its compile', () => {
    const verdict = settleVerdict(NODE24_EXPRESS.slice(12, 20))
    expect(verdict.settled).toBe(false)
    expect(verdict.settled === false && verdict.reason)
      .toMatch(/window 2 of the last 8 counts 143666 instructions per request, more than \d\.\d% from their median/)
    // Its windows that agree in level (all within 1% of their median), the second of them with a compile of 1.6% of its instructions in it:
    // the compile is named.
    const level = [12, 14, 15, 16, 17, 20, 23].map((index) => NODE24_EXPRESS[index])
    const compiling = settleVerdict(level)
    expect(compiling.settled === false && compiling.reason).toMatch(/^window 2 of the last 7 spends 2206 instructions per request in V8's/)
    expect(settleVerdict(level.filter((window) => Number(window.compiler?.instructionsPerRequest) < 400))).toEqual({ settled: true })
  })

  it('stops at the first window whose last eight settle, and at the bound when none do, marking the count not settled', () => {
    const base = { windows: 8, warmupRequests: 2000, windowRequests: 750 }
    // A runtime still compiling for twelve windows, then steady (two counts' windows joined, as a count that settles late would see them).
    const settledWindows = [...NODE24_EXPRESS.slice(0, 12), ...NODE22_SETTLED]
    const stops = settledWindows
      .map((_, index) => settleStop({ ...base, counted: settledWindows.slice(0, index + 1), boundRequests: 40_000 }))
      .map((stop) => stop.done)
    expect(stops.indexOf(true)).toBe(settledWindows.length - 1)
    // node@24's windows never hold eight quiet ones in a row within these 24: a bound of 2,000 + 10 probe windows ends the count there.
    const bounded = NODE24_EXPRESS
      .map((_, index) => settleStop({ ...base, counted: NODE24_EXPRESS.slice(0, index + 1), boundRequests: 9500 }))
    const first = bounded.findIndex((stop) => stop.done)
    expect(first).toBe(17)
    const stop = bounded[first]
    expect(stop.done && stop.verdict.settled).toBe(false)
    expect(stop.done && stop.verdict.settled === false && stop.verdict.reason).toMatch(/^not settled within the bound of 9500 requests/)
  })

  it('gives a fixed warm-up when the bound is the warm-up: the first eight windows are the count, settled or not', () => {
    const counted = NODE24_EXPRESS.slice(0, 8)
    const stop = settleStop({ windows: 8, warmupRequests: 10_000, windowRequests: 750, boundRequests: 10_000, counted })
    expect(stop.done && stop.verdict.settled).toBe(false)
  })
})

describe('the count cache', () => {
  it.skipIf(!findCallgrind())('keys a count of the settling rule apart from one of the fixed rule', () => {
    const callgrind = /** @type {NonNullable<ReturnType<typeof findCallgrind>>} */ (findCallgrind())
    const runtime = { name: 'node@22', kind: 'node', version: 'v22.0.0' }
    const sut = /** @type {any} */ ({ dir: join(PACKAGES_DIR, 'express'), runtime, workers: 1 })
    const scenario = /** @type {import('@dyno/scenarios').Scenario} */ (SCENARIOS.find((candidate) => candidate.name === 'json'))
    const count = {
      warmupRequests: INSTRUCTION_COUNT_DEFAULTS.warmupRequests,
      windowRequests: INSTRUCTION_COUNT_DEFAULTS.windowRequests,
      windows: INSTRUCTION_COUNT_DEFAULTS.windows,
      concurrency: 1,
      settings: countSettingsFor(sut)
    }
    const fixed = countKey({ sut, scenario, valgrind: callgrind.valgrind, count })
    const settlingCount = { ...count, warmupBoundRequests: 40_000, warmupRule: WARMUP_RULE }
    const settling = countKey({ sut, scenario, valgrind: callgrind.valgrind, count: settlingCount })
    expect(settling.key).not.toBe(fixed.key)
    expect(JSON.parse(settling.inputs.count).warmupRule).toBe(WARMUP_RULE)
  })
})

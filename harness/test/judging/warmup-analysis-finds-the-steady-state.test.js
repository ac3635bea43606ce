// @ts-check
import { describe, expect, it } from 'vitest'
import { analyzeWarmup } from '../../src/judging/warmup-analysis.js'

/**
 * Windows of 250 ms with the given p50 latencies (ms) and requests.
 * @param {number[]} p50s @param {(index: number) => number} [requests]
 */
const windows = (p50s, requests = () => 1000) => p50s.map((p50, index) => ({
  startMs: index * 250,
  durationMs: 250,
  requests: requests(index),
  requestsPerSec: requests(index) * 4,
  latencyMs: { p50, p75: p50, p90: p50, p99: p50 * 2 },
  errors: 0
}))

describe('warm-up analysis', () => {
  it('finds when latency settles after a JIT warm-up and how much faster the steady state is', () => {
    // 1 s warmup at 4 ms falling to 1 ms, then 3 s steady at ~1 ms; throughput doubles once warm.
    const warmup = windows([4, 3, 2, 1.5], (index) => 500 + index * 100)
    const measure = windows([1.1, 1, 1, 1.05, 0.95, 1, 1, 1, 1.02, 1, 0.98, 1], () => 1600)
    const analysis = analyzeWarmup(warmup, measure)
    // Rolling medians over 4 windows enter the ±15% band around 1 ms at the window starting at 1500 ms.
    expect(analysis.stableAfterMs).toBe(1500)
    expect(analysis.steadyLatencyP50Ms).toBe(1)
    expect(analysis.firstSecondRequestsPerSec).toBe(2600) // (500+600+700+800) requests in 1 s
    expect(analysis.steadyRequestsPerSec).toBe(6400)
    expect(analysis.steadySpeedup).toBeCloseTo(6400 / 2600, 3)
    expect(analysis.reason).toBeNull()
  })

  it('reports 0 for a SUT that is steady from the first window', () => {
    const flat = windows([1, 1, 1, 1, 1, 1, 1, 1])
    expect(analyzeWarmup(flat.slice(0, 4), flat.slice(4)).stableAfterMs).toBe(0)
  })

  it('says so when latency never settles into the band', () => {
    const drifting = windows([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
    const analysis = analyzeWarmup([], drifting)
    // The steady median is 9.5 ms, but the rolling medians of the second half run from 5.5 to 10.5 ms.
    expect(analysis.stableAfterMs).toBeNull()
    expect(analysis.reason).toMatch(/never settled/)
    expect(analysis.steadyLatencyP50Ms).toBe(9.5)
  })

  it('gives no verdict without enough windows with responses', () => {
    expect(analyzeWarmup([], windows([1, 1]))).toMatchObject({ stableAfterMs: null, reason: 'too few windows with responses' })
  })
})

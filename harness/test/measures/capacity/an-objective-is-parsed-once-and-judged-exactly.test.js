// @ts-check
// An objective is parsed into terms sorted by percentile, in one normal text, and judged against a step's exact latency histogram at the
// percentiles it names (p99.9 as well as p99), not at the rounded summary.
import { describe, expect, it } from 'vitest'
import { createLatencyHistogram, encodeHistogram, recordLatencyMs } from '../../../src/load/latency-histogram.js'
import { judgeObjective, parseObjective } from '../../../src/measures/capacity/objective.js'

describe('an objective', () => {
  it('is parsed into sorted terms, every bound in ms, and one normal text', () => {
    const parsed = parseObjective(' p99.9 <= 0.5s, p50<=2000us ,p99<=10ms')
    expect(parsed).toEqual({
      objective: {
        text: 'p50<=2ms,p99<=10ms,p99.9<=500ms',
        terms: [{ percentile: 50, maxMs: 2 }, { percentile: 99, maxMs: 10 }, { percentile: 99.9, maxMs: 500 }]
      }
    })
  })

  it('is judged on the histogram at exactly the percentiles it names', () => {
    const histogram = createLatencyHistogram()
    // 990 responses at 1 ms, 8 at 8 ms, 2 at 40 ms: p50 1 ms, p99 at most 8 ms, p99.9 (the 999th of 1000) 40 ms.
    for (let at = 0; at < 990; at++) recordLatencyMs(histogram, 1)
    for (let at = 0; at < 8; at++) recordLatencyMs(histogram, 8)
    for (let at = 0; at < 2; at++) recordLatencyMs(histogram, 40)
    const parsed = parseObjective('p50<=2ms,p99<=10ms,p99.9<=20ms')
    if (!('objective' in parsed)) throw new Error(parsed.problem)
    const judged = judgeObjective(parsed.objective, encodeHistogram(histogram), undefined)
    expect(judged.map((term) => term.held)).toEqual([true, true, false])
    expect(judged[2].latencyMs).toBeGreaterThan(20)
    expect(judged[0].latencyMs).toBeLessThanOrEqual(1.01)
  })

  it('holds nothing where nothing was answered', () => {
    const parsed = parseObjective('p99<=10ms')
    if (!('objective' in parsed)) throw new Error(parsed.problem)
    expect(judgeObjective(parsed.objective, encodeHistogram(createLatencyHistogram()), undefined))
      .toEqual([{ percentile: 99, maxMs: 10, latencyMs: null, held: false, sendLagMs: null }])
  })

  it('reads the generator\'s send lag at each term\'s own percentile: one late wake-up is not a late percentile', () => {
    const parsed = parseObjective('p50<=2ms,p99<=10ms,p99.9<=20ms')
    if (!('objective' in parsed)) throw new Error(parsed.problem)
    const latencies = createLatencyHistogram()
    for (let at = 0; at < 1000; at++) recordLatencyMs(latencies, 1)
    // 1000 sends: 995 on time (1 µs late), 5 released together 8 ms late (the generator's cpu given to another process once).
    const onceLate = createLatencyHistogram()
    for (let at = 0; at < 995; at++) recordLatencyMs(onceLate, 0.001)
    for (let at = 0; at < 5; at++) recordLatencyMs(onceLate, 8)
    const once = judgeObjective(parsed.objective, encodeHistogram(latencies), encodeHistogram(onceLate))
    expect(once.slice(0, 2).map((term) => term.sendLagMs)).toEqual([0.001, 0.001])
    expect(once[2].sendLagMs).toBeCloseTo(8, 1)
    // 1000 sends, 30 of them 6 ms late: late at p99 too.
    const oftenLate = createLatencyHistogram()
    for (let at = 0; at < 970; at++) recordLatencyMs(oftenLate, 0.001)
    for (let at = 0; at < 30; at++) recordLatencyMs(oftenLate, 6)
    const often = judgeObjective(parsed.objective, encodeHistogram(latencies), encodeHistogram(oftenLate))
    expect(often[1].sendLagMs).toBeCloseTo(6, 1)
  })
})

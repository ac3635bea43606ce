// @ts-check
// An objective is parsed into terms sorted by percentile, its text kept as given (spaces dropped, letters in lower case), and judged
// against a step's exact latency histogram at the percentiles and bounds it names (p99.9 as well as p99, 1.0006 ms as well as 1 ms),
// not at the rounded summary nor at a rounding of what was given.
import { describe, expect, it } from 'vitest'
import { createLatencyHistogram, encodeHistogram, recordLatencyMs } from '../../../src/load/latency-histogram.js'
import { SLO_OPTION } from '../../../src/measures/capacity/capacity-options.js'
import { capacitySettingsOf } from '../../../src/measures/capacity/capacity-settings.js'
import { judgeObjective, parseObjective } from '../../../src/measures/capacity/objective.js'

/**
 * What a cell judges against, from a value of `--slo`: the option's parser, the text a run's settings record, and that text read back.
 * @param {string} given
 */
function asACellJudgesIt (given) {
  const text = SLO_OPTION.parse(given, '--slo')
  const settings = { objective: text, minRatePerSec: 100, maxRatePerSec: null, stepSec: 1 }
  return capacitySettingsOf(/** @type {any} */ ({ capacity: settings })).objective
}

/** @param {number} latencyMs every response's @returns {string} a step's histogram of 1000 responses */
function stepOf (latencyMs) {
  const histogram = createLatencyHistogram()
  for (let at = 0; at < 1000; at++) recordLatencyMs(histogram, latencyMs)
  return encodeHistogram(histogram)
}

describe('an objective', () => {
  it('is parsed into sorted terms, every bound in ms, its text as given but for spaces and case', () => {
    const parsed = parseObjective(' P99.9 <= 0.5S, p50<=2000us ,p99<=10ms')
    expect(parsed).toEqual({
      objective: {
        text: 'p99.9<=0.5s,p50<=2000us,p99<=10ms',
        terms: [
          { percentile: 50, maxMs: 2, text: 'p50<=2000us' },
          { percentile: 99, maxMs: 10, text: 'p99<=10ms' },
          { percentile: 99.9, maxMs: 500, text: 'p99.9<=0.5s' }
        ]
      }
    })
  })

  it.each(/** @type {[string, string, [number, number, string][]][]} */ ([
    ['p99<=1.0006ms', 'p99<=1.0006ms', [[99, 1.0006, 'p99<=1.0006ms']]],
    ['p0.0000001<=1ms', 'p0.0000001<=1ms', [[0.0000001, 1, 'p0.0000001<=1ms']]],
    ['p99.99<=1us', 'p99.99<=1us', [[99.99, 0.001, 'p99.99<=1us']]],
    ['p50 <= 60 s', 'p50<=60s', [[50, 60_000, 'p50<=60s']]],
    ['p99<=1.0006ms, p50<=0.0011s', 'p99<=1.0006ms,p50<=0.0011s', [[50, 1.1, 'p50<=0.0011s'], [99, 1.0006, 'p99<=1.0006ms']]]
  ]))('`%s` is what --slo records (`%s`) and what a cell judges, exactly', (given, recorded, terms) => {
    expect(SLO_OPTION.parse(given, '--slo')).toBe(recorded)
    expect(asACellJudgesIt(given)).toEqual({
      text: recorded,
      terms: terms.map(([percentile, maxMs, text]) => ({ percentile, maxMs, text }))
    })
  })

  it('holds 1.000 ms and not 1.001 ms within p99<=1.0006ms, as --slo gave it', () => {
    const objective = asACellJudgesIt('p99<=1.0006ms')
    expect(judgeObjective(objective, stepOf(1), undefined).map((term) => term.held)).toEqual([true])
    expect(judgeObjective(objective, stepOf(1.001), undefined).map((term) => term.held)).toEqual([false])
  })

  it.each([
    ['p99<=0.4us', '`p99<=0.4us` has bound 0.4us, below 1 us (the finest latency dyno measures)'],
    ['p99<=0ms', '`p99<=0ms` has bound 0ms, below 1 us'],
    ['p99<=61s', '`p99<=61s` has bound 61s, above 60 s (the longest latency dyno records)'],
    ['p99<=1000000000000000000000ms', '`p99<=1000000000000000000000ms` has bound 1000000000000000000000ms, above 60 s'],
    ['p99<=1e3ms', '`p99<=1e3ms` gives its bound 1e3 in exponent form, which is not taken: write it in plain decimals'],
    ['p99<=1e21', '`p99<=1e21` gives its bound 1e21 in exponent form'],
    ['p1e-7<=1ms', '`p1e-7<=1ms` gives its percentile 1e-7 in exponent form, which is not taken: write it in plain decimals'],
    ['p99.99999999999999999<=1ms', '`p99.99999999999999999<=1ms` names percentile 99.99999999999999999, out of range'],
    ['p0.0000001<=1ms,p0.00000010<=2ms', 'p0.00000010 is named twice']
  ])('`%s` is refused, naming it and why', (given, says) => {
    const parsed = parseObjective(given)
    expect('problem' in parsed && parsed.problem).toContain(says)
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

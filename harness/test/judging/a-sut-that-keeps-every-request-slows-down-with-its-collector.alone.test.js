// @ts-check
// A SUT whose handler keeps every request it served, and collects its whole heap every 200 requests, slows down with its collector:
// each collection walks more than the last, so the collector's pause per request rises and the rate falls, and the runtime's events say
// so window by window. What is asserted follows from the leak on a machine of any speed (a slower one gets less far along the same
// curve in 20 s), never from the clock; the class such series get is asserted on the real series kept in fixtures/classified-series
// (a-series-is-classified-by-its-levels-not-its-scatter), and here the run must carry one. Alone: the rate the SUT serves at, which
// other tests beside it would lower, is the figure asserted on.
import { describe, expect, it } from 'vitest'
import { CLASSIFICATIONS } from '../../src/judging/series-classification.js'
import { fixtureSut } from '../support/fixture-suts.js'
import { trackRuns } from '../support/leftover-processes.js'
import { schemaErrors } from '../support/result-schemas.js'
import { runInTempDir } from '../support/run-fixture.js'

const runs = trackRuns()
const EVENTS_ON = { runtimeEvents: true, engine: /** @type {const} */ ('native') }

/** @param {any[]} windows @param {(window: any) => number} value */
const sum = (windows, value) => windows.reduce((total, window) => total + value(window), 0)
/** @param {Record<string, { count: number, pauseMs: number }>} gc */
const gcPauseMs = (gc) => Object.values(gc).reduce((total, tally) => total + tally.pauseMs, 0)

describe('a SUT that keeps every request it served', () => {
  it('slows down as its collections walk more of what it kept: the pause per request rises and the rate falls, third ' +
    'against third', async () => {
    const {
      written: [record]
    } = await runInTempDir({
      runs,
      suts: [fixtureSut('keeps-every-request')],
      scenarios: ['json'],
      connections: 20,
      load: { ...EVENTS_ON, warmupSec: 0, durationSec: 20 }
    })
    expect(record.status).toBe('ok')
    expect(schemaErrors('result', record)).toEqual([])
    expect(CLASSIFICATIONS).toContain(record.classification.classification)
    // The first two windows are the start (compilation, connections); then the first third of the rest against the last third.
    const series = record.summary.timeseries.slice(2, -1)
    const windows = record.summary.runtimeEvents.windows.slice(2, -1)
    const third = Math.floor(series.length / 3)
    const requests = (/** @type {number} */ from, /** @type {number} */ to) => sum(series.slice(from, to), (window) => window.requests)
    const pausePerRequestUs = (/** @type {number} */ from, /** @type {number} */ to) =>
      (1000 * sum(windows.slice(from, to), (window) => gcPauseMs(window.gc))) / requests(from, to)
    const figures = `pause per request ${pausePerRequestUs(0, third).toFixed(1)} → ` +
      `${pausePerRequestUs(-third, series.length).toFixed(1)} µs, requests ${requests(0, third)} → ${requests(-third, series.length)}`
    expect(pausePerRequestUs(-third, series.length), figures).toBeGreaterThan(1.3 * pausePerRequestUs(0, third))
    expect(requests(-third, series.length), figures).toBeLessThan(requests(0, third))
  }, 90_000)

  it('leaves no process behind', () => {
    runs.expectNoneLeft(expect)
  })
})

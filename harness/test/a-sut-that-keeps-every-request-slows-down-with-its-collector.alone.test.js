// @ts-check
// A SUT whose handler keeps every request it served in an array that only grows is classified as slowing down (or as having no
// steady state), and its runtime's events say why: the collector's pause per request rises window by window, and the stalls fall
// where V8's other threads take the SUT's cpu. Alone: how soon the heap grows into its stalls follows the rate the SUT serves at,
// which other tests running beside it would lower.
import { describe, expect, it } from 'vitest'
import { fixtureSut } from './support/fixture-suts.js'
import { trackRuns } from './support/leftover-processes.js'
import { schemaErrors } from './support/result-schemas.js'
import { runInTempDir } from './support/run-fixture.js'

const runs = trackRuns()
const EVENTS_ON = { runtimeEvents: true, engine: /** @type {const} */ ('native') }

/** @param {any[]} windows @param {(window: any) => number} value */
const sum = (windows, value) => windows.reduce((total, window) => total + value(window), 0)
/** @param {Record<string, { count: number, pauseMs: number }>} gc */
const gcPauseMs = (gc) => Object.values(gc).reduce((total, tally) => total + tally.pauseMs, 0)

describe('a SUT that keeps every request it served', () => {
  it('classifies a SUT that keeps every request it served as slowing down, its collections costing more per request window by window', async () => {
    const { written: [record] } = await runInTempDir({
      runs, suts: [fixtureSut('keeps-every-request')], scenarios: ['json'], connections: 20, load: { ...EVENTS_ON, warmupSec: 0, durationSec: 20 }
    })
    expect(record.status).toBe('ok')
    expect(schemaErrors('result', record)).toEqual([])
    expect(['slowdown', 'no steady state']).toContain(record.classification.classification)
    // The first two windows are the start (compilation, connections); then a third of the rest against the last third.
    const series = record.summary.timeseries.slice(2, -1)
    const windows = record.summary.runtimeEvents.windows.slice(2, -1)
    const third = Math.floor(series.length / 3)
    const pausePerRequestUs = (/** @type {number} */ from, /** @type {number} */ to) =>
      1000 * sum(windows.slice(from, to), (window) => gcPauseMs(window.gc)) / sum(series.slice(from, to), (window) => window.requests)
    expect(pausePerRequestUs(-third, series.length)).toBeGreaterThan(1.3 * pausePerRequestUs(0, third))
    const rate = (/** @type {number} */ from, /** @type {number} */ to) => sum(series.slice(from, to), (window) => window.requests)
    expect(rate(-third, series.length)).toBeLessThan(rate(0, third))
  }, 90_000)
})

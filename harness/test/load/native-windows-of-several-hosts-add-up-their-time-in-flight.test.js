// @ts-check
// Load from several hosts (`--load-hosts`) merges each phase of the native engines exactly: the time in flight of a window is
// the sum of every host's, to the µs, as its requests and histogram are; what the hosts' connections negotiated is said once;
// a WebSocket phase's messages, counted under the handshake's 101, are no non-2xx answers; and windows of an engine that does not
// know its time in flight (autocannon's) carry none rather than a made-up one.
import { describe, expect, it } from 'vitest'
import { createLatencyHistogram, encodeHistogram, recordLatencyMs } from '../../src/load/latency-histogram.js'
import { nativePhaseSummary, nativePortableCounts, withProtocol } from '../../src/load/engines/native/native-report.js'
import { mergeCounts } from '../../src/load/phase-counts.js'
import { phaseSummary } from '../../src/load/phase-summary.js'
import { windowsFromParts } from '../../src/load/timeseries.js'
import { planFor } from '../support/engine-under-test.js'

/** @param {number[]} latenciesMs @returns {string} */
function histogramOf (latenciesMs) {
  const histogram = createLatencyHistogram()
  for (const latency of latenciesMs) recordLatencyMs(histogram, latency)
  return encodeHistogram(histogram)
}

/**
 * A phase as one host's engine reports it with window histograms: two windows of 250 ms.
 * @param {{ requests: [number, number], inFlightUs: [number, number], status?: number, negotiated?: string }} host
 * @returns {import('../../src/load/engines/native/native-report.js').NativePhaseReport}
 */
function hostReport ({ requests, inFlightUs, status = 200, negotiated = 'h2c' }) {
  const windows = requests.map((count, index) => ({
    startMs: index * 250,
    durationMs: 250,
    requests: count,
    errors: 0,
    inFlightUs: inFlightUs[index],
    latencyUs: /** @type {[number, number, number, number]} */ ([1000, 1000, 1000, 1000]),
    histogramUs: histogramOf(Array(count).fill(1))
  }))
  const total = requests[0] + requests[1]
  return {
    name: 'measure',
    durationMs: 500,
    requests: total,
    bytes: total * 100,
    errors: 0,
    timeouts: 0,
    mismatches: 0,
    statusCounts: { [status]: total },
    perSecond: [total],
    latencyHistogramUs: histogramOf(Array(total).fill(1)),
    windows,
    stoppedEarly: false,
    rate: null,
    protocolNegotiated: negotiated
  }
}

describe('the windows of native engines on several hosts', () => {
  it('add up their time in flight to the µs, and say once what the hosts negotiated', () => {
    const reports = [
      hostReport({ requests: [400, 420], inFlightUs: [1_999_999, 2_000_001] }),
      hostReport({ requests: [300, 310], inFlightUs: [1_500_123, 1_499_877] })
    ]
    const plan = { ...planFor(1, 'json'), protocol: 'h2c' }
    const { counts } = mergeCounts(reports.map(nativePortableCounts))
    const summary = withProtocol(phaseSummary(counts, plan.expectedStatus), reports, plan)
    expect(summary.timeseries?.map((window) => [window.requests, window.inFlightMs])).toEqual([[700, 3500.122], [730, 3499.878]])
    expect(summary.protocolNegotiated).toBe('h2c')
    // One host alone, as the single-host path reads it: the same figures in ms.
    expect(nativePhaseSummary(reports[0], plan).timeseries?.map((window) => window.inFlightMs)).toEqual([1999.999, 2000.001])
  })

  it('make a WebSocket phase\'s messages no non-2xx answers, and name each protocol when hosts spoke differently', () => {
    const reports = [
      hostReport({ requests: [10, 10], inFlightUs: [1, 1], status: 101, negotiated: 'websocket over http/1.1' }),
      hostReport({ requests: [10, 10], inFlightUs: [1, 1], status: 101, negotiated: 'h2c' })
    ]
    const plan = { ...planFor(1, 'json'), url: 'http://127.0.0.1:1/ws', protocol: 'ws', websocket: { message: { text: 'x' } } }
    const { counts } = mergeCounts(reports.map(nativePortableCounts))
    const summary = withProtocol(phaseSummary(counts, 101), reports, plan)
    expect(summary).toMatchObject({
      non2xx: 0,
      unexpectedStatus: 0,
      statusCounts: { 101: 40 },
      protocolNegotiated: 'h2c, websocket over http/1.1'
    })
  })

  it('carry no time in flight when a part does not know it', () => {
    const part = { startMs: 0, durationMs: 250, requests: 1, errors: 0, histogramUs: histogramOf([1]) }
    expect(windowsFromParts([[part], [{ ...part, inFlightUs: 5000 }]])[0]).not.toHaveProperty('inFlightMs')
    expect(windowsFromParts([[{ ...part, inFlightUs: 2500 }], [{ ...part, inFlightUs: 5000 }]])[0].inFlightMs).toBe(7.5)
  })
})

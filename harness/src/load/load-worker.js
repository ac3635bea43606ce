// @ts-check
// The load generator process: runs each phase of a plan (autocannon, or the fixed-rate schedule) and
// reports each phase's summary over IPC. It is a separate process so that the orchestrator never competes with it.
import autocannon from 'autocannon'
import { bodyVerifier } from './body-verifier.js'
import { createLatencyHistogram, encodeHistogram, latencySummaryMs, recordLatencyMs } from './latency-histogram.js'
import { runRatePhase } from './rate-phase.js'
import { createWindowRecorder } from './timeseries.js'

/** @type {{ stop: () => void } | null} */
let current = null
let stopRequested = false

/** @param {object} message */
const send = (message) => new Promise((resolve) => process.send?.(message, resolve))

/**
 * @param {import('./load-plan.js').LoadPlan} plan
 * @param {{ name: string, durationSec: number }} phase
 * @returns {Promise<import('./load-plan.js').PhaseSummary>}
 */
function runPhase (plan, phase) {
  return new Promise((resolve, reject) => {
    const histogram = createLatencyHistogram()
    const windows = createWindowRecorder(plan.windowMs)
    const instance = autocannon({
      url: plan.url,
      method: /** @type {any} */ (plan.method),
      headers: plan.headers,
      body: plan.body ?? undefined,
      connections: plan.connections,
      pipelining: plan.pipelining,
      duration: phase.durationSec,
      verifyBody: bodyVerifier(plan.expectedBody)
    }, (error, result) => {
      current = null
      if (error) return reject(error)
      resolve({ ...summarize(result, histogram, plan.expectedStatus), timeseries: windows.finish() })
    })
    current = instance
    let elapsedSec = 0
    // The per-response hook: the whole-phase µs histogram and the current window's.
    instance.on('response', (client, statusCode, resBytes, responseTimeMs) => {
      recordLatencyMs(histogram, responseTimeMs)
      windows.response(responseTimeMs)
    })
    instance.on('reqError', () => windows.error())
    instance.on('tick', ({ counter }) => {
      elapsedSec += 1
      send({ type: 'progress', phase: phase.name, elapsedSec, requestsPerSec: counter })
    })
    if (stopRequested) instance.stop()
  })
}

/**
 * @param {any} result autocannon's result
 * @param {import('hdr-histogram-js').Histogram} histogram
 * @param {number} expectedStatus
 * @returns {Omit<import('./load-plan.js').PhaseSummary, 'timeseries'>}
 */
function summarize (result, histogram, expectedStatus) {
  /** @type {Record<string, number>} */
  const statusCounts = {}
  for (const [status, { count }] of Object.entries(result.statusCodeStats ?? {})) statusCounts[status] = count
  const requests = result.requests.total
  const durationSec = result.duration
  return {
    requests,
    durationSec,
    requestsPerSec: { mean: durationSec > 0 ? Math.round(requests / durationSec * 10) / 10 : 0, stdev: result.requests.stddev },
    latencyMs: latencySummaryMs(histogram),
    latencyHistogramUs: encodeHistogram(histogram),
    bytesPerSec: result.throughput.mean,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    mismatches: result.mismatches,
    unexpectedStatus: requests - (statusCounts[String(expectedStatus)] ?? 0),
    statusCounts,
    stoppedEarly: stopRequested
  }
}

process.on('message', async (/** @type {any} */ message) => {
  if (message.type === 'stop') {
    stopRequested = true
    current?.stop()
    return
  }
  if (message.type !== 'start') return
  /** @type {import('./load-plan.js').LoadPlan} */
  const plan = message.plan
  try {
    for (const phase of plan.phases) {
      if (stopRequested) break
      // An open-model plan sends on a fixed schedule (rate-phase.js); a closed one keeps the connections busy (autocannon).
      const summary = plan.ratePerSec
        ? await runRatePhase(/** @type {import('./rate-phase.js').RatePlan} */ (plan), phase, {
          onProgress: (progress) => send({ type: 'progress', ...progress }),
          isStopped: () => stopRequested
        })
        : await runPhase(plan, phase)
      await send({ type: 'phase', phase: phase.name, summary })
    }
    await send({ type: 'done' })
  } catch (error) {
    await send({ type: 'error', message: error instanceof Error ? error.message : String(error) })
  }
  process.disconnect()
})

// The orchestrator went away: stop at once instead of loading a server nobody measures.
process.on('disconnect', () => {
  stopRequested = true
  current?.stop()
})

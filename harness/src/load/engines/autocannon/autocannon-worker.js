// @ts-check
// A load generator process: runs each phase of a plan (autocannon, or the fixed-rate schedule) and reports
// what each phase counted over IPC. It is a separate process so that the orchestrator never competes with it;
// the orchestrator runs one per generator cpu, each with its share of the connections, and adds them up.
import autocannon from 'autocannon'
import { loadBodyModule } from '../../../subjects/verify/body-module.js'
import { bodyVerifier } from '../../../subjects/verify/body-verifier.js'
import { createLatencyHistogram, encodeHistogram, recordLatencyMs } from '../../latency-histogram.js'
import { fromOwnShare } from '../../in-turn.js'
import { rateCounts } from './rate-phase.js'
import { createWindowRecorder } from '../../timeseries.js'
import { trackRequestsInFlight } from './requests-in-flight.js'

/** @type {{ stop: () => void } | null} */
let current = null
let stopRequested = false

/** @param {object} message */
const send = (message) => new Promise((resolve) => process.send?.(message, resolve))

/**
 * @param {import('../../load-plan.js').LoadPlan} plan
 * @param {{ name: string, durationSec: number }} phase
 * @returns {Promise<import('../../phase-counts.js').PortableCounts>}
 */
function runPhase (plan, phase) {
  return new Promise((resolve, reject) => {
    const histogram = createLatencyHistogram()
    const windows = createWindowRecorder(plan.windowMs, { timeInFlight: true })
    /** @type {import('../../timeseries.js').WindowPart[] | null} */
    let windowParts = null
    // The windows end when autocannon ends its clients, not when it reports (its last tick and its result come later).
    const endWindows = () => (windowParts ??= windows.finish())
    /** @type {number[]} responses in each second, from autocannon's ticks */
    const perSecond = []
    let clients = 0
    const instance = autocannon({
      url: plan.url,
      method: /** @type {any} */ (plan.method),
      // Drawn requests carry their own headers and body: autocannon would add the plan's to each of them.
      headers: plan.inTurn ? {} : plan.headers,
      body: plan.inTurn ? undefined : plan.body ?? undefined,
      connections: plan.connections,
      pipelining: plan.pipelining,
      duration: phase.durationSec,
      verifyBody: bodyVerifier(plan.expectedBody),
      // Every client, before it connects: its requests in flight, for the windows' time in flight; the windows start with the
      // first connection open.
      // Drawn requests: each client sends them all in turn, starting where its share of them starts.
      setupClient: (/** @type {any} */ client) => {
        if (plan.inTurn) client.setRequests(fromOwnShare(plan.inTurn, clients++, plan.connections).map(autocannonRequest))
        trackRequestsInFlight(client, windows.inFlightChanged, { opened: windows.begin, ending: endWindows })
      }
    }, (error, result) => {
      current = null
      if (error) return reject(error)
      resolve(countsOf(result, { histogram, perSecond, windows: endWindows() }))
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
      perSecond.push(counter)
      send({ type: 'progress', phase: phase.name, elapsedSec, requestsPerSec: counter })
    })
    if (stopRequested) instance.stop()
  })
}

/**
 * A drawn request as autocannon's `requests` take it (no body: none sent).
 * @param {import('@dyno/scenarios').DrawnRequest} drawn
 */
const autocannonRequest = ({ method, path, headers, body }) => ({ method, path, headers, ...(body === null ? {} : { body }) })

/**
 * @param {any} result autocannon's result
 * @param {{ histogram: import('hdr-histogram-js').Histogram, perSecond: number[], windows: import('../../timeseries.js').WindowPart[] }}
 *   recorded what the per-response hook and the ticks recorded
 * @returns {import('../../phase-counts.js').PortableCounts}
 */
function countsOf (result, { histogram, perSecond, windows }) {
  /** @type {Record<string, number>} */
  const statusCounts = {}
  for (const [status, { count }] of Object.entries(result.statusCodeStats ?? {})) statusCounts[status] = count
  return {
    requests: result.requests.total,
    durationSec: result.duration,
    perSecond,
    histogramUs: encodeHistogram(histogram),
    bytes: result.throughput.total,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCounts,
    mismatches: result.mismatches,
    stoppedEarly: stopRequested,
    windows
  }
}

process.on('message', async (/** @type {any} */ message) => {
  if (message.type === 'stop') {
    stopRequested = true
    current?.stop()
    return
  }
  if (message.type !== 'start') return
  /** @type {import('../../load-plan.js').LoadPlan} */
  const plan = message.plan
  try {
    await loadBodyModule(plan.expectedBody)
    for (const phase of plan.phases) {
      if (stopRequested) break
      // An open-model plan sends on a fixed schedule (rate-phase.js); a closed one keeps the connections busy (autocannon).
      const counts = plan.ratePerSec
        ? await rateCounts(/** @type {import('./rate-phase.js').RatePlan} */ (plan), phase, {
          onProgress: (progress) => send({ type: 'progress', ...progress }),
          isStopped: () => stopRequested
        })
        : await runPhase(plan, phase)
      await send({ type: 'phase', phase: phase.name, counts })
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

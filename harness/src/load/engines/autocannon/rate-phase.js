// @ts-check
// The open-model load of one phase: requests leave on a fixed schedule, whatever the server does, and
// each latency is measured from the request's INTENDED send time. A server that stalls makes the
// requests scheduled during the stall wait, and that wait shows in the tail; a closed-loop generator
// (autocannon) would instead send less during the stall and never see it (coordinated omission).
import { Pool, buildConnector } from 'undici'
import { loadBodyModule } from '../../../subjects/verify/body-module.js'
import { bodyVerifier } from '../../../subjects/verify/body-verifier.js'
import { createLatencyHistogram, encodeHistogram, recordLatencyMs } from '../../latency-histogram.js'
import { mergeCounts } from '../../phase-counts.js'
import { phaseSummary } from '../../phase-summary.js'
import { runSchedule } from './rate-schedule.js'
import { createWindowRecorder } from '../../timeseries.js'
import { roundTo } from '../../../platform/util/numbers.js'

/** How long requests still in flight when the schedule ends may take; those left after it are timeouts. */
export const DRAIN_MS = 2000
/** A request without its response headers (or the rest of its body) this long is a timeout, as in autocannon. */
const REQUEST_TIMEOUT_MS = 10_000
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'])

/**
 * @typedef {import('../../load-plan.js').LoadPlan & { ratePerSec: number }} RatePlan
 *
 * @typedef {import('../../phase-counts.js').RateFigures} RateFigures how well the generator kept its schedule;
 *   a maxSendLagMs far above a few ms means the generator itself could not keep it, and that lag is part of
 *   every latency it measured
 *
 * @typedef {import('../../load-plan.js').PhaseSummary & { rate: RateFigures }} RatePhaseSummary
 *
 * @typedef {object} RatePhaseHooks
 * @property {(progress: { phase: string, elapsedSec: number, requestsPerSec: number }) => void} [onProgress] once a second
 * @property {() => boolean} [isStopped] polled each time the schedule wakes (at least every 1000 / ratePerSec ms): true stops the
 *   sending (the drain still runs)
 */

/**
 * Runs one phase at `plan.ratePerSec` and summarizes it (one generator process on its own).
 * @param {RatePlan} plan
 * @param {{ name: string, durationSec: number }} phase
 * @param {RatePhaseHooks} [hooks]
 * @returns {Promise<RatePhaseSummary>}
 */
export async function runRatePhase (plan, phase, hooks = {}) {
  const { counts, rate } = mergeCounts([await rateCounts(plan, phase, hooks)])
  return { ...phaseSummary(counts, plan.expectedStatus), rate: /** @type {RateFigures} */ (rate) }
}

/**
 * Runs one phase at `plan.ratePerSec` requests per second for `phase.durationSec`, over a pool of at
 * most `plan.connections` keep-alive connections. A request whose time has come while every connection
 * is busy waits in the pool's queue, and its latency includes that wait; no scheduled request is ever
 * skipped. After the schedule, requests still in flight get DRAIN_MS to finish, then count as timeouts.
 * @param {RatePlan} plan
 * @param {{ name: string, durationSec: number }} phase
 * @param {RatePhaseHooks} [hooks]
 * @returns {Promise<import('../../phase-counts.js').PortableCounts & { rate: RateFigures }>}
 */
export async function rateCounts (plan, phase, { onProgress, isStopped = () => false } = {}) {
  await loadBodyModule(plan.expectedBody)
  const url = new URL(plan.url)
  const bytes = createByteCounter()
  const pool = new Pool(url.origin, {
    connections: plan.connections,
    pipelining: plan.pipelining,
    connect: bytes.connector,
    headersTimeout: REQUEST_TIMEOUT_MS,
    bodyTimeout: REQUEST_TIMEOUT_MS
  })
  const windows = createWindowRecorder(plan.windowMs)
  const tally = createTally(bodyVerifier(plan.expectedBody), windows)
  /** @type {import('undici').Dispatcher.DispatchOptions} */
  const request = {
    path: url.pathname + url.search,
    method: /** @type {import('undici').Dispatcher.HttpMethod} */ (plan.method),
    headers: plan.headers,
    body: plan.body
  }

  const inTurn = plan.inTurn?.map(({ method, path, headers, body }) => ({
    ...request, method: /** @type {import('undici').Dispatcher.HttpMethod} */ (method), path, headers, body
  }))
  let sent = 0
  const progress = startProgress(phase.name, tally, onProgress)
  const schedule = await runSchedule({
    ratePerSec: plan.ratePerSec,
    durationSec: phase.durationSec,
    isStopped,
    send: (intendedMs) => dispatch(pool, inTurn ? inTurn[sent++ % inTurn.length] : request, tally, intendedMs)
  })
  const drained = await tally.drained(DRAIN_MS)
  progress.stop()
  // The phase lasts until its last send slot or its last answer, whichever is later; a drain that ran
  // out waited on requests that never ended and adds nothing to it.
  const sendWindowSec = (schedule.lastSendMs - schedule.startMs) / 1000 + 1 / plan.ratePerSec
  const durationSec = Math.max(sendWindowSec, (tally.lastEndMs() - schedule.startMs) / 1000)
  const timeouts = tally.abandon()
  await (drained ? pool.close() : pool.destroy())

  const { histogram, ...counts } = tally.counts(phase.durationSec)
  return {
    ...counts,
    histogramUs: encodeHistogram(histogram),
    durationSec,
    bytes: bytes.total(),
    // As every engine counts them: a timed-out request is an error too.
    errors: counts.errors + tally.timeouts() + timeouts,
    timeouts: tally.timeouts() + timeouts,
    stoppedEarly: schedule.stoppedEarly,
    windows: windows.finish(),
    rate: {
      targetPerSec: plan.ratePerSec,
      achievedSendPerSec: roundTo(schedule.sent / sendWindowSec, 1),
      maxSendLagMs: roundTo(schedule.maxSendLagMs, 3),
      sendLagHistogramUs: encodeHistogram(schedule.sendLagUs)
    }
  }
}

/**
 * Sends one request; its outcome goes to the tally, measured from `intendedMs`.
 * @param {Pool} pool
 * @param {import('undici').Dispatcher.DispatchOptions} request
 * @param {ReturnType<typeof createTally>} tally
 * @param {number} intendedMs
 */
function dispatch (pool, request, tally, intendedMs) {
  const outcome = tally.begin(intendedMs)
  /** @type {Buffer[]} */
  const chunks = []
  let status = 0
  pool.dispatch({ ...request }, {
    onRequestStart () {},
    onResponseStart (controller, statusCode) { status = statusCode },
    onResponseData (controller, chunk) { if (tally.checksBody) chunks.push(chunk) },
    onResponseEnd () { outcome.response(status, chunks.length === 1 ? chunks[0].toString() : Buffer.concat(chunks).toString()) },
    onResponseError (controller, error) { outcome.failure(error) }
  })
}

/**
 * Everything one phase counts. A request is begun when sent and ends once: with a response, a
 * failure, or abandoned when the drain runs out.
 * @param {((body: string) => boolean) | undefined} verify
 * @param {ReturnType<typeof createWindowRecorder>} windows the phase's timeseries
 */
function createTally (verify, windows) {
  const histogram = createLatencyHistogram()
  /** @type {Record<string, number>} */
  const statusCounts = {}
  /** @type {number[]} completed responses per second of the phase, by completion time */
  const perSecond = []
  let startMs = 0
  let requests = 0
  let errors = 0
  let timeouts = 0
  let mismatches = 0
  let inFlight = 0
  let lastEndMs = 0
  let sinceProgress = 0
  let closed = false
  /** @type {(() => void) | null} */
  let onIdle = null

  const settle = () => {
    inFlight -= 1
    lastEndMs = performance.now()
    if (inFlight === 0) onIdle?.()
  }

  return {
    checksBody: verify !== undefined,
    /** @param {number} intendedMs */
    begin (intendedMs) {
      if (startMs === 0) startMs = intendedMs
      inFlight += 1
      let ended = false
      return {
        /** @param {number} status @param {string} body */
        response (status, body) {
          if (ended || closed) return
          ended = true
          const endMs = performance.now()
          recordLatencyMs(histogram, endMs - intendedMs)
          windows.response(endMs - intendedMs)
          requests += 1
          sinceProgress += 1
          const second = Math.floor((endMs - startMs) / 1000)
          perSecond[second] = (perSecond[second] ?? 0) + 1
          statusCounts[status] = (statusCounts[status] ?? 0) + 1
          if (verify && !verify(body)) mismatches += 1
          settle()
        },
        /** @param {Error & { code?: string }} error */
        failure (error) {
          if (ended || closed) return
          ended = true
          if (error.code && TIMEOUT_CODES.has(error.code)) timeouts += 1
          else errors += 1
          windows.error()
          settle()
        }
      }
    },
    /** @param {number} limitMs @returns {Promise<boolean>} whether every request ended within the limit */
    drained (limitMs) {
      if (inFlight === 0) return Promise.resolve(true)
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), limitMs)
        onIdle = () => { clearTimeout(timer); resolve(true) }
      })
    },
    /** Stops counting; @returns {number} the requests still in flight (sent or waiting for a connection) */
    abandon () {
      closed = true
      return inFlight
    },
    lastEndMs: () => lastEndMs,
    timeouts: () => timeouts,
    takeProgress () {
      const count = sinceProgress
      sinceProgress = 0
      return count
    },
    /**
     * What the phase counted, for phaseSummary (timeouts apart: the drain adds to them).
     * @param {number} scheduledSec the phase's nominal length: its whole seconds give the per-second spread
     */
    counts (scheduledSec) {
      return {
        requests,
        perSecond: Array.from({ length: Math.max(1, Math.floor(scheduledSec)) }, (_, second) => perSecond[second] ?? 0),
        histogram,
        errors,
        mismatches,
        statusCounts
      }
    }
  }
}

/**
 * Reports the responses of each second while the phase runs.
 * @param {string} phase
 * @param {ReturnType<typeof createTally>} tally
 * @param {RatePhaseHooks['onProgress']} onProgress
 */
function startProgress (phase, tally, onProgress) {
  let elapsedSec = 0
  const timer = onProgress
    ? setInterval(() => {
      elapsedSec += 1
      onProgress({ phase, elapsedSec, requestsPerSec: tally.takeProgress() })
    }, 1000)
    : null
  return { stop: () => { if (timer) clearInterval(timer) } }
}

/**
 * A connector for the pool that keeps its sockets, to add up the bytes they read (headers and
 * bodies, as autocannon counts them) without touching how undici reads them.
 */
function createByteCounter () {
  const connect = buildConnector({})
  /** @type {Set<import('node:net').Socket>} */
  const open = new Set()
  let closedBytes = 0
  /** @type {buildConnector.connector} */
  const connector = (options, callback) => connect(options, (error, socket) => {
    if (socket) {
      open.add(socket)
      socket.once('close', () => {
        closedBytes += socket.bytesRead
        open.delete(socket)
      })
    }
    if (error) callback(error, null)
    else callback(null, /** @type {any} */ (socket))
  })
  return {
    connector,
    total: () => closedBytes + [...open].reduce((sum, socket) => sum + socket.bytesRead, 0)
  }
}

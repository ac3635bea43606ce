// @ts-check
// The native engine (engines/native, Rust): runs a load plan, closed loop or open model, with one thread
// per generator cpu, every response's status counted and body checked as the contract says, one µs sample
// per response, over HTTP/1.1 (in cleartext or TLS), HTTP/2 (h2, h2c) or WebSocket (native-protocols.js). One
// process for the whole plan; each phase comes back as a JSON line and becomes the same PhaseSummary the other
// engines give, through phaseSummary, with what the connections negotiated, how long they took to come up before the
// phase's clock started, and each window's time in flight.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DynoError } from '../../../platform/errors.js'
import { NATIVE_ENGINE_DIR } from '../../../platform/paths.js'
import { pinnedSpawnArgs } from '../../../platform/process/pinned-spawn.js'
import { LineTail } from '../../../platform/process/line-tail.js'
import { spawnGroupLeader, stopProcessGroup } from '../../../platform/process/process-group.js'
import { decodeHistogram } from '../../latency-histogram.js'
import { phaseSummary } from '../../phase-summary.js'
import { roundTo } from '../../../platform/util/numbers.js'
import { WORLD_ROW_RULE } from '@dyno/scenarios/data'
import { planProtocol, planTls } from './native-protocols.js'

const BINARY = join(NATIVE_ENGINE_DIR, 'target', 'release', 'dyno-load')
const MANIFEST = join(NATIVE_ENGINE_DIR, 'build', 'dyno-build.json')
/** The engine stops within a tick of being told; this bounds the wait beyond the planned duration. */
const GRACE_MS = 10_000
/** A response slower than this is a timeout (as autocannon and wrk count them); the engine also waits at most this long for a phase's
 * connections to come up before it starts the phase's clock. */
const TIMEOUT_MS = 10_000
/** The deadline of each step that brings a connection up (TCP connect, TLS, HTTP/2's first frame, the WebSocket upgrade): a server of
 * the contract takes milliseconds; one that has not answered in 5 s counts an error named for the step, and the connection tries again. */
const HANDSHAKE_TIMEOUT_MS = 5_000
/** The longest response body (or WebSocket message) the engine takes; a longer one is an invalid response, with its reason. The contract's
 * bodies are a few KB. */
export const BODY_LIMIT_BYTES = 16 * 1024 * 1024
/** The most distinct failure reasons a summary keeps (the engine names a dozen kinds), and the longest. */
const MAX_FAILURE_REASONS = 32
const MAX_REASON_CHARS = 200

/**
 * The longest the engine's phases may run: each its duration, after waiting up to TIMEOUT_MS for its connections to come up.
 * @param {import('../../load-plan.js').LoadPlan} plan @returns {number}
 */
export function plannedEngineMs (plan) {
  return plan.phases.reduce((sum, phase) => sum + phase.durationSec * 1000 + TIMEOUT_MS, 0)
}

/**
 * The built engine, or why there is none (with what to install).
 * @returns {{ ok: true, path: string, version: string } | { ok: false, reason: string }}
 */
export function findNativeEngine () {
  let manifest = null
  try {
    manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'))
  } catch {
    return {
      ok: false,
      reason:
        'the native engine is not built: run `pnpm install` (it builds engines/native with cargo; install Rust from https://rustup.rs or ' +
          '`apt-get install cargo`)'
    }
  }
  if (!manifest.ok) return { ok: false, reason: `the native engine is not built: ${manifest.skipReason}` }
  if (!existsSync(BINARY)) {
    return {
      ok: false,
      reason: `the native engine's binary ${BINARY} is missing: run \`pnpm --filter ` +
    '@dyno/engine-native build`'
    }
  }
  return { ok: true, path: BINARY, version: manifest.version }
}

/** @param {import('@dyno/scenarios').BodyExpectation | null} expected */
function bodyExpectation (expected) {
  if (!expected) return { mode: 'none' }
  if (expected.text !== undefined) return { mode: 'exact', text: expected.text }
  if (expected.check === 'worldRow') return { mode: 'worldRow', ...WORLD_ROW_RULE }
  if (expected.check !== undefined) {
    throw new DynoError('DYNO_ERR_INVALID_OPTION', `native engine: no body check named \`${expected.check}\`; it knows worldRow`)
  }
  return { mode: 'json', canonical: JSON.stringify(expected.json), json: expected.json }
}

/**
 * @param {import('./native-protocols.js').NativePlan} plan @param {number} threads
 * @param {{ startAtUnixMs?: number | null, windowHistograms?: boolean }} [across] load from several hosts: when all of them begin, and
 *   each window's histogram, so that their windows add up exactly
 * @returns {Record<string, unknown>} what the engine reads on its standard input; for HTTP/1.1 in cleartext, the fields it always had
 */
export function engineConfig (plan, threads, { startAtUnixMs = null, windowHistograms = false } = {}) {
  const { name, protocol, url } = planProtocol(plan)
  return {
    address: `${url.hostname}:${url.port}`,
    remoteHost: plan.remoteHost,
    ...(name === 'http1' ? {} : { protocol: name }),
    ...protocol.request(plan, url),
    ...(protocol.tls ? { tls: planTls(plan, name) } : {}),
    connections: plan.connections,
    pipelining: plan.pipelining,
    ...(protocol.streams ? { streams: plan.streams ?? 1 } : {}),
    threads: Math.max(1, Math.min(threads, plan.connections)),
    phases: plan.phases.map((phase) => ({ name: phase.name, durationMs: Math.max(1, Math.round(phase.durationSec * 1000)) })),
    windowMs: plan.windowMs,
    timeoutMs: TIMEOUT_MS,
    handshakeTimeoutMs: HANDSHAKE_TIMEOUT_MS,
    bodyLimitBytes: BODY_LIMIT_BYTES,
    ratePerSec: plan.ratePerSec,
    // An echo is checked against the message sent, whatever the scenario's body says.
    expectBody: protocol.messagesUnder === null ? bodyExpectation(plan.expectedBody) : { mode: 'none' },
    ...(startAtUnixMs === null ? {} : { startAtUnixMs }),
    ...(windowHistograms ? { windowHistograms } : {})
  }
}

/**
 * @typedef {object} NativeWindow a window as the engine reports it
 * @property {number} startMs @property {number} durationMs @property {number} requests @property {number} errors
 * @property {number} inFlightUs the time requests spent in flight inside the window, summed over them, completed or not
 * @property {[number, number, number, number] | null} latencyUs p50, p75, p90, p99
 * @property {string} [histogramUs] asked for with windowHistograms: the window's µs histogram
 *
 * @typedef {object} NativePhaseReport
 * @property {'warmup' | 'measure'} name
 * @property {number} durationMs @property {number} requests @property {number} bytes @property {number} errors
 * @property {number} timeouts @property {number} mismatches @property {Record<string, number>} statusCounts
 * @property {number[]} perSecond @property {string} latencyHistogramUs @property {NativeWindow[]} windows
 * @property {boolean} stoppedEarly
 * @property {import('../../phase-counts.js').RateFigures | null} rate
 * @property {string | null} [protocolNegotiated] what the connections spoke (`http/1.1 over TLSv1.3`, `h2 over TLSv1.3`, …); null when
 *   none was established
 * @property {number} [connectMs] how long the phase's connections took to come up (connected, TLS and protocol handshakes done) before
 *   the engine started the phase's clock, at most timeoutMs
 * @property {number} [connectionsUp] how many of them were up when the clock started (fewer than the plan's: the wait was cut short)
 * @property {number} [invalidResponses] responses refused as invalid (not HTTP, a length that cannot be, a head or body over its bound)
 * @property {Record<string, number>} [failureReasons] each named failure and how often: the invalid responses by reason, the handshakes
 *   that ran out of time
 *
 * @typedef {import('../../load-plan.js').PhaseSummary & { protocolNegotiated?: string }} NativePhaseSummary
 */

/**
 * What a phase summary takes from the engine's report as it is, whatever form it is merged or summed in.
 * @param {NativePhaseReport} report
 */
function reportedCounts (report) {
  return {
    requests: report.requests,
    durationSec: report.durationMs / 1000,
    perSecond: report.perSecond,
    bytes: report.bytes,
    errors: report.errors + report.timeouts,
    timeouts: report.timeouts,
    statusCounts: report.statusCounts,
    mismatches: report.mismatches,
    stoppedEarly: report.stoppedEarly
  }
}

/**
 * @param {NativePhaseReport} report @param {import('./native-protocols.js').NativePlan} plan
 * @returns {NativePhaseSummary}
 */
export function nativePhaseSummary (report, plan) {
  const summary = phaseSummary(
    {
      ...reportedCounts(report),
      histogram: decodeHistogram(report.latencyHistogramUs),
      timeseries: report.windows.map((window) => ({
        startMs: window.startMs,
        durationMs: window.durationMs,
        requests: window.requests,
        requestsPerSec: window.durationMs > 0 ? roundTo((window.requests / window.durationMs) * 1000, 1) : 0,
        latencyMs: window.latencyUs
          ? {
              p50: window.latencyUs[0] / 1000,
              p75: window.latencyUs[1] / 1000,
              p90: window.latencyUs[2] / 1000,
              p99: window.latencyUs[3] / 1000
            }
          : null,
        errors: window.errors,
        ...(typeof window.inFlightUs === 'number' ? { inFlightMs: roundTo(window.inFlightUs / 1000, 3) } : {})
      }))
    },
    plan.expectedStatus
  )
  const withRate = report.rate ? { ...summary, rate: report.rate } : summary
  return withFailures(withConnects(withProtocol(withRate, [report], plan), [report]), [report])
}

/**
 * A phase summary with the invalid responses and the named failures of the engines' reports, added up; as it was when an engine did not
 * say (one from before they were counted).
 * @template {import('../../load-plan.js').PhaseSummary} S
 * @param {S} summary @param {NativePhaseReport[]} reports the phase as each engine reported it
 * @returns {S}
 */
export function withFailures (summary, reports) {
  if (reports.length === 0 || !reports.every((report) => Number.isInteger(report.invalidResponses))) return summary
  /** @type {Map<string, number>} */
  const reasons = new Map()
  for (const report of reports) {
    for (const [reason, count] of Object.entries(report.failureReasons ?? {})) {
      if (!Number.isInteger(count) || count <= 0) continue
      const key = reason.slice(0, MAX_REASON_CHARS)
      if (reasons.has(key) || reasons.size < MAX_FAILURE_REASONS) reasons.set(key, (reasons.get(key) ?? 0) + count)
    }
  }
  return {
    ...summary,
    invalidResponses: reports.reduce((sum, report) => sum + /** @type {number} */ (report.invalidResponses), 0),
    failureReasons: Object.fromEntries([...reasons].sort(([a], [b]) => a.localeCompare(b)))
  }
}

/**
 * A phase summary with how long the engines' connections took to come up before the phase's clock started (the longest of several
 * engines', which each wait for their own) and how many were up then (added up); as it was when an engine did not say.
 * @template {import('../../load-plan.js').PhaseSummary} S
 * @param {S} summary @param {NativePhaseReport[]} reports the phase as each engine reported it
 * @returns {S}
 */
export function withConnects (summary, reports) {
  const said = reports.every((report) => Number.isFinite(report.connectMs) && Number.isInteger(report.connectionsUp))
  if (!said || reports.length === 0) return summary
  return {
    ...summary,
    connectMs: Math.max(...reports.map((report) => /** @type {number} */ (report.connectMs))),
    connectionsUp: reports.reduce((sum, report) => sum + /** @type {number} */ (report.connectionsUp), 0)
  }
}

/**
 * A phase summary with what the engines' connections negotiated, and, for a protocol whose messages are counted under the
 * handshake's status (ws: 101), no non-2xx answer made of them.
 * @param {import('../../load-plan.js').PhaseSummary} summary @param {NativePhaseReport[]} reports the phase as each engine reported it
 * @param {import('./native-protocols.js').NativePlan} plan
 * @returns {NativePhaseSummary}
 */
export function withProtocol (summary, reports, plan) {
  const { protocol } = planProtocol(plan)
  const negotiated = [
    ...new Set(reports.flatMap((report) => (report.protocolNegotiated ? report.protocolNegotiated.split(', ') : [])))
  ].sort()
  const non2xx =
    protocol.messagesUnder === null ? summary.non2xx : summary.non2xx - (summary.statusCounts[String(protocol.messagesUnder)] ?? 0)
  return { ...summary, non2xx, ...(negotiated.length > 0 ? { protocolNegotiated: negotiated.join(', ') } : {}) }
}

/**
 * A phase as one engine counted it, in the form the counts of several generators are merged from (phase-counts.js).
 * @param {NativePhaseReport} report
 * @returns {import('../../phase-counts.js').PortableCounts}
 */
export function nativePortableCounts (report) {
  return {
    ...reportedCounts(report),
    histogramUs: report.latencyHistogramUs,
    windows: report.windows.every((window) => window.requests === 0 || window.histogramUs)
      ? report.windows.map((window) => ({
        startMs: window.startMs,
        durationMs: window.durationMs,
        requests: window.requests,
        errors: window.errors,
        histogramUs: window.histogramUs ?? null,
        ...(typeof window.inFlightUs === 'number' ? { inFlightUs: window.inFlightUs } : {})
      }))
      : null,
    ...(report.rate ? { rate: report.rate } : {})
  }
}

/**
 * The error of a phase the engine could not go on with (a certificate not trusted, HTTP/2 not negotiated, a WebSocket handshake
 * refused), naming why.
 * @param {{ phase?: unknown, message?: unknown }} message the engine's `failed` line
 * @param {string} [where] the host it ran on, for load from several hosts
 */
export function failedPhase (message, where = '') {
  return new DynoError(
    'DYNO_ERR_LOAD_GENERATOR',
    `the native engine${where ? ` on ${where}` : ''} could not go on with the ${String(message.phase)} phase: ` +
      `${String(message.message).slice(0, 1000)}`
  )
}

/**
 * The engine's JSON lines as they come; a line that is not JSON goes to `onNotJson`, and nothing after it is read.
 * @param {import('node:stream').Readable} stdout
 * @param {(message: any) => void} onMessage
 * @param {(line: string) => void} onNotJson
 */
export function readEngineMessages (stdout, onMessage, onNotJson) {
  let pending = ''
  let broken = false
  stdout.on('data', (chunk) => {
    const lines = (pending + chunk.toString()).split('\n')
    pending = lines.pop() ?? ''
    for (const line of lines) {
      if (broken) return
      let message
      try {
        message = JSON.parse(line)
      } catch {
        broken = true
        return onNotJson(line)
      }
      onMessage(message)
    }
  })
}

/**
 * Starts the engine on the plan, in its own process group, pinned to `cpus` with one thread per cpu. Same
 * shape as startLoad's LoadRun: stop() ends the phase under way early (still reported) and skips the rest.
 * @param {import('../../load-plan.js').LoadPlan} plan
 * @param {import('../engine.js').EngineHooks} hooks
 * @returns {import('../engine.js').LoadRun}
 */
export function startNativeLoad (plan, hooks) {
  const engine = findNativeEngine()
  if (!engine.ok) return { pids: [], stop: () => {}, done: Promise.reject(new DynoError('DYNO_ERR_LOAD_GENERATOR', engine.reason)) }
  const config = engineConfig(plan, hooks.threads)
  const { command, args } = pinnedSpawnArgs(engine.path, [], hooks.cpus ?? null)
  const child = spawnGroupLeader(command, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...hooks.env } })
  const stderr = new LineTail()
  child.stderr?.on('data', (chunk) => stderr.push(chunk))
  child.stdin?.end(JSON.stringify(config))
  const plannedMs = plannedEngineMs(plan)

  const done = new Promise((resolve, reject) => {
    /** @type {{ phases: Partial<Record<'warmup' | 'measure', import('../../load-plan.js').PhaseSummary>> }} */
    const outcome = { phases: {} }
    let settled = false
    const finish = (/** @type {Error | null} */ error) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      stopProcessGroup(child, { graceMs: 2000, label: 'native load engine' }).then(() => error ? reject(error) : resolve(outcome), reject)
    }
    const deadline = setTimeout(() => finish(new DynoError('DYNO_ERR_LOAD_GENERATOR',
      `the native engine did not finish within ${Math.round((plannedMs + GRACE_MS) / 1000)} s`)), plannedMs + GRACE_MS)
    readEngineMessages(/** @type {import('node:stream').Readable} */ (child.stdout), (message) => {
      if (message.type === 'progress') hooks.onProgress?.(message)
      else if (message.type === 'clock') hooks.onClock?.(message.phase)
      else if (message.type === 'phase') {
        outcome.phases[/** @type {'warmup' | 'measure'} */ (message.report.name)] = nativePhaseSummary(message.report, plan)
        hooks.onPhase?.(message.report.name)
      } else if (message.type === 'failed') finish(failedPhase(message))
      else if (message.type === 'done') finish(null)
    }, (line) => finish(new DynoError('DYNO_ERR_LOAD_GENERATOR', `the native engine printed what is not JSON: ${line.slice(0, 200)}`)))
    // After its output is read: an engine that ends without `done` ended early.
    child.on('close', (code, signal) => finish(new DynoError('DYNO_ERR_LOAD_GENERATOR',
      `the native engine exited early (${signal ?? `exit code ${code}`}); its stderr:\n${stderr.format()}`)))
    child.on('error', (error) =>
      finish(new DynoError('DYNO_ERR_LOAD_GENERATOR', `the native engine could not start: ${error.message}`, { cause: error }))
    )
  })
  return {
    pids: child.pid ? [child.pid] : [],
    stop: () => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM') },
    done
  }
}

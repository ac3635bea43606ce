// @ts-check
// What the native engine is told on its standard input: the plan in its protocol (native-protocols.js), its threads, phases and
// windows, the deadlines of a response and of a handshake, the longest body it takes (`--max-body-mib`) and how it checks each body.
import { WORLD_ROW_RULE } from '@dyno/scenarios/data'
import { DynoError } from '../../../platform/errors.js'
import { bodyLimitBytesOf } from './native-options.js'
import { planProtocol, planTls } from './native-protocols.js'

/** A response slower than this is a timeout (as autocannon and wrk count them); the engine also waits at most this long for a phase's
 * connections to come up before it starts the phase's clock. */
const TIMEOUT_MS = 10_000
/** The deadline of each step that brings a connection up (TCP connect, TLS, HTTP/2's first frame, the WebSocket upgrade): a server of
 * the contract takes milliseconds; one that has not answered in 5 s counts an error named for the step, and the connection tries again. */
const HANDSHAKE_TIMEOUT_MS = 5_000

/**
 * The longest the engine's phases may run: each its duration, after waiting up to TIMEOUT_MS for its connections to come up.
 * @param {import('../../load-plan.js').LoadPlan} plan @returns {number}
 */
export function plannedEngineMs (plan) {
  return plan.phases.reduce((sum, phase) => sum + phase.durationSec * 1000 + TIMEOUT_MS, 0)
}

/** @param {import('@dyno/scenarios').BodyExpectation | null} expected */
function bodyExpectation (expected) {
  if (!expected) return { mode: 'none' }
  if (expected.text !== undefined) return { mode: 'exact', text: expected.text }
  if (expected.check === 'worldRow') return { mode: 'worldRow', ...WORLD_ROW_RULE }
  // A service's JSON Schema or module is checked at verification; under load the engine checks the status and the framing of every
  // answer.
  if (expected.schema !== undefined || expected.module !== undefined) return { mode: 'none' }
  if (expected.check !== undefined) {
    throw new DynoError('DYNO_ERR_INVALID_OPTION', `native engine: no body check named \`${expected.check}\`; it knows worldRow`)
  }
  return { mode: 'json', canonical: JSON.stringify(expected.json), json: expected.json }
}

/**
 * @param {import('./native-protocols.js').NativePlan} plan @param {number} threads
 * @param {import('../engine.js').EngineSettings} [settings] its own options' (native-options.js); absent: their defaults
 * @param {{ startAtUnixMs?: number | null, windowHistograms?: boolean }} [across] load from several hosts: when all of them begin, and
 *   each window's histogram, so that their windows add up exactly
 * @returns {Record<string, unknown>} what the engine reads on its standard input; for HTTP/1.1 in cleartext, the fields it always had
 */
export function engineConfig (plan, threads, settings, { startAtUnixMs = null, windowHistograms = false } = {}) {
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
    bodyLimitBytes: bodyLimitBytesOf(settings),
    ratePerSec: plan.ratePerSec,
    // An echo is checked against the message sent, whatever the scenario's body says.
    expectBody: protocol.messagesUnder === null ? bodyExpectation(plan.expectedBody) : { mode: 'none' },
    ...(startAtUnixMs === null ? {} : { startAtUnixMs }),
    ...(windowHistograms ? { windowHistograms } : {})
  }
}

// @ts-check
import { PROTOCOLS } from '@dyno/scenarios'

/** The lowest offered rate a plan takes: below it a phase of any length sends nothing, and the schedule's interval outgrows what an
 * engine keeps. */
export const MIN_RATE_PER_SEC = 0.001

/**
 * What the load generator process is asked to do: plain data, sent over IPC.
 * @typedef {object} LoadPlan
 * @property {string} url its path the request's (with `inTurn`, the first one's)
 * @property {import('@dyno/scenarios').DrawnRequest[]} [inTurn] the paths, headers and bodies the requests take in turn (a service's
 *   generated parameters); absent: the URL's, `headers` and `body` every time
 * @property {boolean} remoteHost the SUT runs on a host the user named (`--sut-host`): the engine may load an address that is not loopback
 * @property {string} method
 * @property {Record<string, string>} headers
 * @property {string | null} body
 * @property {number} connections
 * @property {number} pipelining
 * @property {{ name: 'warmup' | 'measure', durationSec: number }[]} phases run in order, each its own autocannon run
 * @property {number} expectedStatus
 * @property {import('@dyno/scenarios').BodyExpectation | null} expectedBody
 * @property {number} windowMs the width of the timeseries windows
 * @property {number | null} ratePerSec open model: requests per second on a fixed schedule, latency from each intended send time; null:
 *   closed loop
 * @property {string} [protocol] the scenario's protocol (the scenarios' `PROTOCOLS`): http1 (absent: the same), tls, h2, h2c or ws; an
 *   engine is handed only plans of the protocols it declares (engine.js: `protocols`)
 * @property {number} [streams] h2, h2c: concurrent streams per connection; ws: messages in flight per connection (absent: 1)
 * @property {{ caFile: string, serverName: string } | null} [tls] tls, h2: the PEM of the certificate made for the run, which the engine
 *   trusts, and the name it is valid for (SNI)
 * @property {{ message: { text: string } | { binaryBase64: string } } | null} [websocket] ws: the message every connection sends and
 *   expects echoed (the path and Host come from the URL)
 *
 * @typedef {object} PhaseSummary what one phase measured
 * @property {number} requests completed responses
 * @property {number} durationSec measured by the generator
 * @property {{ mean: number, stdev: number }} requestsPerSec mean: requests / durationSec; stdev: of the per-second counts
 * @property {ReturnType<typeof import('./latency-histogram.js').latencySummaryMs>} latencyMs
 * @property {string} latencyHistogramUs the µs HDR histogram, compressed base64
 * @property {number} bytesPerSec
 * @property {number} errors
 * @property {number} timeouts
 * @property {number} non2xx
 * @property {number} mismatches responses whose body did not match the scenario
 * @property {number} unexpectedStatus responses whose status was not the scenario's
 * @property {Record<string, number>} statusCounts
 * @property {boolean} stoppedEarly
 * @property {import('./phase-counts.js').RateFigures} [rate] open model only: how well the schedule was kept
 * @property {import('../platform/resources/resource-sampler.js').ResourceReport} [resources] CPU and RSS of the SUT and the generator
 *   during the phase
 * @property {import('../platform/resources/cpu-cost.js').CpuCost | null} [cpuCost] what a response cost the SUT in cpu, and where it was
 *   read
 * @property {number | null} [requestsPerCpuSec] derived from cpuCost
 * @property {import('./engines/engine.js').HostShare[]} [loadHosts] load from several hosts: what each host's engine did
 * @property {boolean} [generatorBound] the generator set the pace (resources/resource-defaults.js: GENERATOR_BOUND_RULE)
 * @property {number | null} [generatorCpuPct]
 * @property {number | null} [generatorHeadroomPct] 100 − the share of its allotment the generator used
 * @property {ReturnType<typeof import('../platform/resources/event-loop-samples.js').summarizeEventLoop>} [eventLoop]
 * @property {import('../subjects/runtime-events/phase-runtime-events.js').PhaseRuntimeEvents} [runtimeEvents] what the SUT's runtime did in
 *   each window (collections, compilations, deoptimisations, event-loop delay), or the reason it is not known
 * @property {import('../platform/resources/interference-sampler.js').InterferenceReport | null} [interference] what other processes took of
 *   the cpus of the SUT and the generator during the phase; null: /proc/stat could not be read
 * @property {import('./timeseries.js').Window[] | null} timeseries the phase in windows of plan.windowMs; null when the engine cannot cut
 *   it
 * @property {string} [protocolNegotiated] what the engine's connections spoke, as negotiated (`h2 over TLSv1.3`); engines that report it
 * @property {number} [connectMs] how long the phase's connections took to come up (connected, TLS and protocol handshakes done) before the
 *   phase's clock started: durationSec, the rates and the windows run from then; engines that wait for them (native)
 * @property {number} [connectionsUp] how many connections were up when the phase's clock started: fewer than the plan's when the wait
 *   for them was cut short; engines that wait for them (native)
 * @property {number} [invalidResponses] responses refused as invalid (not HTTP, a length that cannot be, a head or body over its bound);
 *   engines that parse the responses themselves (native)
 * @property {Record<string, number>} [failureReasons] each named failure and how often: the invalid responses by reason, the handshakes
 *   that ran out of time; engines that name them (native)
 */

/**
 * The load plan of a scenario against a SUT at `address` (127.0.0.1 unless it runs on another host): the scenario's request and
 * expectation in its protocol, a warmup phase when warmupSec > 0, then the measured phase. A protocol other than HTTP/1.1 in
 * cleartext adds what it needs: the certificate to trust (TLS), the streams per connection (HTTP/2, WebSocket), the message to echo.
 * @param {{ address?: string, remoteHost?: boolean, port: number, scenario: import('@dyno/scenarios').Scenario, connections: number,
 *   pipelining: number, warmupSec: number, durationSec: number, windowMs: number, ratePerSec?: number | null, streams?: number,
 *   trust?: { caFile: string, serverName: string } | null }} settings trust: the run's certificate (subjects/tls/run-certificate.js)
 * @returns {LoadPlan}
 */
export function scenarioLoadPlan ({
  address = '127.0.0.1', remoteHost = false, port, scenario, connections, pipelining, warmupSec, durationSec, windowMs, ratePerSec = null,
  streams = 1, trust = null
}) {
  const protocol = PROTOCOLS[scenario.protocol]
  const { inTurn } = scenario.request
  return {
    url: `${protocol.tls ? 'https' : 'http'}://${address.includes(':') ? `[${address}]` : address}:${port}${inTurn?.[0].path ?? scenario.request.path}`,
    ...(inTurn ? { inTurn } : {}),
    remoteHost,
    method: scenario.request.method,
    headers: scenario.request.headers ?? {},
    body: scenario.request.body ?? null,
    connections,
    pipelining,
    phases: [
      ...(warmupSec > 0 ? [{ name: /** @type {const} */ ('warmup'), durationSec: warmupSec }] : []),
      { name: /** @type {const} */ ('measure'), durationSec }
    ],
    expectedStatus: scenario.expect.status,
    expectedBody: scenario.expect.body,
    windowMs,
    ratePerSec,
    ...protocolPlan(scenario, { streams, trust })
  }
}

/**
 * What a plan adds for a scenario's protocol; nothing for HTTP/1.1 in cleartext, whose plans stay as every engine always read them.
 * @param {import('@dyno/scenarios').Scenario} scenario
 * @param {{ streams: number, trust: { caFile: string, serverName: string } | null }} settings
 * @returns {Partial<Pick<LoadPlan, 'protocol' | 'streams' | 'tls' | 'websocket'>>}
 */
function protocolPlan (scenario, { streams, trust }) {
  if (scenario.protocol === 'http1') return {}
  const protocol = PROTOCOLS[scenario.protocol]
  return {
    protocol: scenario.protocol,
    ...(protocol.streams ? { streams } : {}),
    ...(protocol.tls ? { tls: trust && { caFile: trust.caFile, serverName: trust.serverName } } : {}),
    ...(scenario.websocket ? { websocket: { message: { text: scenario.websocket.text } } } : {})
  }
}

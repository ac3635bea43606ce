// @ts-check
// The protocols the native engine speaks, one entry each: the URL schemes a plan for it may give, the fields of the engine's
// config that carry its request (HTTP/1.1's bytes, HTTP/2's parts, a WebSocket's message), and whether it takes TLS and
// streams. A plan says its protocol in `protocol` (other parts of the harness put it there); a plan without one is HTTP/1.1 in
// cleartext, and its config is the one the engine was always given, byte for byte.
import { DynoError } from '../../../platform/errors.js'
import { http1Request } from '../../http1-request.js'
import { headerLines } from '../../request-headers.js'

/**
 * @typedef {object} ProtocolPlan what a load plan may add for a protocol other than HTTP/1.1 in cleartext
 * @property {string} [protocol] http1 (absent: the same), tls, h2, h2c or ws
 * @property {number} [streams] h2, h2c: concurrent streams per connection; ws: messages in flight per connection (absent: 1)
 * @property {{ caFile: string, serverName: string } | null} [tls] tls, h2: the PEM of the certificate (or CA) made for the run, and
 *   the name it is valid for
 * @property {{ message: { text: string } | { binaryBase64: string } } | null} [websocket] ws: the message every connection sends and
 *   expects echoed (the path and Host come from the plan's URL)
 *
 * @typedef {import('../../load-plan.js').LoadPlan & ProtocolPlan} NativePlan
 *
 * @typedef {object} NativeProtocol
 * @property {string[]} schemes the URL schemes a plan for it may give
 * @property {boolean} tls
 * @property {boolean} streams whether `streams` applies (HTTP/1.1 keeps `pipelining` requests in flight instead)
 * @property {(plan: NativePlan, url: URL) => Record<string, unknown>} request the config's fields that carry the request
 * @property {number | null} messagesUnder the status the engine counts every message under (ws: the handshake's 101, which is then
 *   no non-2xx answer); null: each response's own
 */

/** The most streams (h2) or messages (ws) one connection keeps in flight: the engine's own bound (engines/native/src/config.rs). */
export const MAX_STREAMS = 10_000

/** HTTP/2 forbids these (RFC 9113 §8.2.2); the authority is a pseudo-header, and the body's length is computed. */
const HTTP2_COMPUTED = ['content-length', 'host', 'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']

/** @type {Record<string, NativeProtocol>} */
export const NATIVE_PROTOCOLS = {
  http1: { schemes: ['http:'], tls: false, streams: false, request: (plan) => http1Requests(plan), messagesUnder: null },
  tls: { schemes: ['https:'], tls: true, streams: false, request: (plan) => http1Requests(plan), messagesUnder: null },
  h2: { schemes: ['https:'], tls: true, streams: true, request: (plan, url) => ({ http: http2Request(plan, url) }), messagesUnder: null },
  h2c: { schemes: ['http:'], tls: false, streams: true, request: (plan, url) => ({ http: http2Request(plan, url) }), messagesUnder: null },
  ws: { schemes: ['ws:', 'http:'], tls: false, streams: true, request: webSocket, messagesUnder: 101 }
}

/**
 * The protocol of a plan, its entry and URL, checked against each other.
 * @param {NativePlan} plan
 * @returns {{ name: string, protocol: NativeProtocol, url: URL }}
 */
export function planProtocol (plan) {
  const name = plan.protocol ?? 'http1'
  const protocol = Object.hasOwn(NATIVE_PROTOCOLS, name) ? NATIVE_PROTOCOLS[name] : undefined
  if (!protocol) {
    throw new DynoError(
      'DYNO_ERR_INVALID_OPTION',
      `native engine: no protocol named \`${name}\`; it speaks ${Object.keys(NATIVE_PROTOCOLS).join(', ')}`
    )
  }
  const url = new URL(plan.url)
  if (!protocol.schemes.includes(url.protocol)) {
    throw new DynoError(
      'DYNO_ERR_INVALID_OPTION',
      `native engine: protocol ${name} takes a URL of ${protocol.schemes.map((scheme) => `\`${scheme}\``).join(' or ')}, got ` +
        `\`${plan.url}\``
    )
  }
  if (!protocol.streams && (plan.streams ?? 1) !== 1) {
    throw new DynoError('DYNO_ERR_INVALID_OPTION',
      `native engine: streams apply to h2, h2c and ws; protocol ${name} pipelines instead (got ${plan.streams} streams)`)
  }
  return { name, protocol, url }
}

/**
 * The config's fields of an HTTP/1.1 request: the one request, or with generated parameters, each drawn one, sent in turn.
 * @param {import('../../load-plan.js').LoadPlan} plan
 * @returns {{ request: string } | { requestsInTurn: string[] }}
 */
function http1Requests (plan) {
  if (!plan.inTurn) return { request: http1Request(plan, 'native') }
  return { requestsInTurn: plan.inTurn.map((drawn) => http1Request(plan, 'native', drawn)) }
}

/**
 * The same request in HTTP/2's parts: the headers in lower case, without those HTTP/2 forbids or computes.
 * @param {NativePlan} plan @param {URL} url
 */
export function http2Request (plan, url) {
  if (plan.inTurn) throw new DynoError('DYNO_ERR_INVALID_OPTION', 'native engine: drawn requests are sent over HTTP/1.1 only')
  const headers = headerLines(plan.headers, 'native', HTTP2_COMPUTED).map((line) => {
    const colon = line.indexOf(':')
    return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()]
  })
  if (plan.body !== null) headers.push(['content-length', String(Buffer.byteLength(plan.body))])
  return { method: plan.method, path: `${url.pathname}${url.search}`, authority: url.host, headers, body: plan.body }
}

/** @param {NativePlan} plan @param {URL} url */
function webSocket (plan, url) {
  if (!plan.websocket?.message) {
    throw new DynoError('DYNO_ERR_INVALID_OPTION', 'native engine: protocol ws needs the message to send (the plan\'s websocket.message)')
  }
  return { websocket: { path: `${url.pathname}${url.search}`, host: url.host, message: plan.websocket.message } }
}

/**
 * What the engine trusts, for a protocol over TLS.
 * @param {NativePlan} plan @param {string} name
 * @returns {{ caFile: string, serverName: string }}
 */
export function planTls (plan, name) {
  if (!plan.tls?.caFile || !plan.tls.serverName) {
    throw new DynoError('DYNO_ERR_INVALID_OPTION',
      `native engine: protocol ${name} needs the certificate made for the run (the plan's tls.caFile and tls.serverName)`)
  }
  return { caFile: plan.tls.caFile, serverName: plan.tls.serverName }
}

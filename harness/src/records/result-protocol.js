// @ts-check
// What a result's protocol means for reading its figures: whether its figures count requests or WebSocket messages, how many of them
// each connection keeps in flight, and the words a table shows for what its connections spoke.
import { PROTOCOLS } from '@dyno/scenarios'

/**
 * @typedef {{ scenario: { name: string, protocol?: string }, load: { pipelining: number, streams?: number },
 *   summary?: { protocolNegotiated?: string } | null }} ProtocolFacts the parts of a result this file reads
 */

/**
 * The protocol a result's scenario was spoken in: http1 for a result of an earlier version (they were all HTTP/1.1 in cleartext) and
 * for a name this dyno does not know (a result is data).
 * @param {ProtocolFacts} record
 * @returns {import('@dyno/scenarios').Protocol}
 */
export function protocolOf (record) {
  const name = record.scenario.protocol
  return name !== undefined && Object.hasOwn(PROTOCOLS, name) ? PROTOCOLS[/** @type {keyof typeof PROTOCOLS} */ (name)] : PROTOCOLS.http1
}

/**
 * How many requests (or messages) each connection keeps in flight in a closed loop, and what sets it.
 * @param {ProtocolFacts} record
 * @returns {{ count: number, setBy: 'streams' | 'pipelining' }}
 */
export function inFlightPerConnection (record) {
  return protocolOf(record).streams
    ? { count: record.load.streams ?? 1, setBy: 'streams' }
    : { count: record.load.pipelining, setBy: 'pipelining' }
}

/**
 * What one exchange is: `req` (a request and its response) or `msg` (a WebSocket message and its echo), for `req/s` and `msg/s`.
 * @param {ProtocolFacts} record
 */
export const exchangeOf = (record) => protocolOf(record).exchange === 'message' ? 'msg' : 'req'

/**
 * What a table shows of a result's protocol: what its connections negotiated (where the engine reports it, else the scenario's
 * protocol), and the streams or messages each kept in flight where the protocol has them.
 * @param {ProtocolFacts} record
 * @returns {string} `h2 over TLSv1.3, 8 streams`, `websocket over http/1.1, 1 message in flight`, `http/1.1`
 */
export function protocolText (record) {
  const protocol = protocolOf(record)
  const spoken = record.summary?.protocolNegotiated ?? protocol.summary
  if (!protocol.streams) return spoken
  const streams = record.load.streams ?? 1
  const unit = protocol.exchange === 'message' ? `message${streams === 1 ? '' : 's'} in flight` : `stream${streams === 1 ? '' : 's'}`
  return `${spoken}, ${streams} ${unit}`
}

/**
 * What a scenario's section says its connections spoke, from the first of its results whose engine reported it: nothing for HTTP/1.1
 * in cleartext, which every other table assumes.
 * @param {ProtocolFacts[]} records the scenario's results
 * @returns {string | null} `h2 over TLSv1.3, 8 streams`; null for HTTP/1.1 in cleartext, or no result
 */
export function scenarioProtocolText (records) {
  const spoken = records.find((record) => record.summary?.protocolNegotiated) ?? records[0]
  return spoken?.scenario.protocol && spoken.scenario.protocol !== 'http1' ? protocolText(spoken) : null
}

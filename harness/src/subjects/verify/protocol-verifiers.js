// @ts-check
// How verification speaks each protocol of the contract (PROTOCOLS of @dyno/scenarios): one verifier each, all returning the checks
// they made. A protocol is verified only through this table.
import { verifyH2, verifyH2c } from './h2-exchange.js'
import { verifyHttp1, verifyTls } from './http1-exchange.js'
import { verifyWebSocket } from './websocket-exchange.js'

/**
 * @typedef {(target: import('./verify-scenario.js').VerifyTarget, scenario: import('@dyno/scenarios').Scenario) =>
 *   Promise<import('./check-response.js').Check[]>} ProtocolVerifier
 */

/** @type {Readonly<Record<import('@dyno/scenarios').ProtocolName, ProtocolVerifier>>} */
export const PROTOCOL_VERIFIERS = Object.freeze({
  http1: verifyHttp1,
  tls: verifyTls,
  h2: verifyH2,
  h2c: verifyH2c,
  ws: verifyWebSocket
})

// @ts-check
import { PROTOCOLS } from '@dyno/scenarios'

/**
 * What a SUT process serves for a scenario: its protocol's `serves` (a WebSocket scenario is served by the HTTP/1.1 process).
 * @param {import('@dyno/scenarios').Scenario} scenario
 * @returns {import('@dyno/scenarios').ServedProtocol}
 */
export const servedProtocolOf = (scenario) => PROTOCOLS[scenario.protocol].serves

/**
 * The variables that tell a SUT what to serve for a scenario: PROTOCOL, and for a TLS protocol the files of the run's certificate (their
 * paths; the key itself stays in its file). Without a certificate a TLS protocol gets PROTOCOL alone, and its SUT ends its start naming
 * the missing variable.
 * @param {import('@dyno/scenarios').Scenario} scenario
 * @param {{ certFile: string, keyFile: string } | null} certificate the run's (subjects/tls/run-certificate.js)
 * @returns {Record<string, string>}
 */
export function protocolEnv (scenario, certificate) {
  const protocol = PROTOCOLS[scenario.protocol]
  if (!protocol.tls || !certificate) return { PROTOCOL: protocol.serves }
  return { PROTOCOL: protocol.serves, TLS_CERT_FILE: certificate.certFile, TLS_KEY_FILE: certificate.keyFile }
}

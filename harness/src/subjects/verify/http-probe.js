// @ts-check
import http from 'node:http'
import https from 'node:https'

/**
 * @typedef {object} ProbeResponse
 * @property {number} status
 * @property {Record<string, string | string[] | undefined>} headers lower-cased names
 * @property {string} body
 * @property {boolean} reusedSocket whether the request went over a kept-alive connection
 * @property {{ version: string | null, alpn: string | false | null } | null} tls what the TLS connection negotiated; null: cleartext
 */

/**
 * Sends one request over node:http (or node:https, when the agent is an https.Agent) and reads the whole answer; no retries, no
 * redirects, no decoding beyond UTF-8, so that what is checked is what the SUT sent.
 * @param {{ host: string, port: number, agent: http.Agent, timeoutMs: number }} target
 * @param {import('@dyno/scenarios').Scenario['request']} request
 * @returns {Promise<ProbeResponse>}
 */
export function sendProbe ({ host, port, agent, timeoutMs }, request) {
  return new Promise((resolve, reject) => {
    const headers = { ...request.headers }
    if (request.body !== null && request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body))
    const send = agent instanceof https.Agent ? https.request : http.request
    const req = send({ host, port, method: request.method, path: request.path, headers, agent, timeout: timeoutMs }, (res) => {
      const chunks = []
      const socket = /** @type {import('node:tls').TLSSocket} */ (res.socket)
      const tls = socket.encrypted ? { version: socket.getProtocol(), alpn: socket.alpnProtocol } : null
      res.on('data', (chunk) => chunks.push(chunk))
      res.on('error', reject)
      res.on('end', () => resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        reusedSocket: req.reusedSocket,
        tls
      }))
    })
    req.on('timeout', () => req.destroy(new Error(`no complete answer within ${timeoutMs} ms`)))
    req.on('error', reject)
    req.end(request.body ?? undefined)
  })
}

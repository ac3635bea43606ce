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

/** The most bytes of an answer's body verification reads: a body past it fails its request, named, and is not read further. */
export const VERIFY_BODY_LIMIT_BYTES = 16 * 1024 * 1024

/**
 * Sends one request over node:http (or node:https, when the agent is an https.Agent) and reads the whole answer; no retries, no
 * redirects, no decoding beyond UTF-8, so that what is checked is what the SUT sent. The exchange ends within `timeoutMs` however the
 * SUT trickles its answer, at the first byte past VERIFY_BODY_LIMIT_BYTES, and at once when `signal` aborts.
 * @param {{ host: string, port: number, agent: http.Agent, timeoutMs: number, signal?: AbortSignal }} target
 * @param {import('@dyno/scenarios').Scenario['request']} request
 * @returns {Promise<ProbeResponse>}
 */
export function sendProbe ({ host, port, agent, timeoutMs, signal }, request) {
  return new Promise((resolve, reject) => {
    const headers = { ...request.headers }
    if (request.body !== null && request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body))
    const send = agent instanceof https.Agent ? https.request : http.request
    const req = send({ host, port, method: request.method, path: request.path, headers, agent }, (res) => {
      /** @type {Buffer[]} */
      const chunks = []
      let bytes = 0
      const socket = /** @type {import('node:tls').TLSSocket} */ (res.socket)
      const tls = socket.encrypted ? { version: socket.getProtocol(), alpn: socket.alpnProtocol } : null
      const declared = res.headers['content-length']
      if (declared !== undefined && !(Number(declared) <= VERIFY_BODY_LIMIT_BYTES)) {
        return req.destroy(new Error(`a Content-Length of ${declared.slice(0, 40)} passes the ${VERIFY_BODY_LIMIT_BYTES}-byte limit`))
      }
      res.on('data', (chunk) => {
        bytes += chunk.length
        if (bytes > VERIFY_BODY_LIMIT_BYTES) return req.destroy(new Error(`the body passed ${VERIFY_BODY_LIMIT_BYTES} bytes`))
        chunks.push(chunk)
      })
      res.on('error', reject)
      res.on('end', () => {
        settle()
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          reusedSocket: req.reusedSocket,
          tls
        })
      })
    })
    const timer = setTimeout(() => req.destroy(new Error(`no complete answer within ${timeoutMs} ms`)), timeoutMs)
    const abort = () => req.destroy(new Error(`interrupted by ${String(signal?.reason)}`))
    const settle = () => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', abort)
    }
    if (signal?.aborted) abort()
    else signal?.addEventListener('abort', abort, { once: true })
    req.on('error', (error) => {
      settle()
      reject(error)
    })
    req.end(request.body ?? undefined)
  })
}

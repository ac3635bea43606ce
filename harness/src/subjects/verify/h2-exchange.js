// @ts-check
// HTTP/2, over TLS (ALPN h2) and in cleartext with prior knowledge, spoken with node:http2's client: the connection's protocol, the
// measured request, a second stream on the same connection; then HTTP/1.1 sent to the same port, which an HTTP/2 port must not serve.
import http2 from 'node:http2'
import net from 'node:net'
import tls from 'node:tls'
import { checkResponse, excerpt } from './check-response.js'
import { clientTls, describeRequest, noTrust } from './http1-exchange.js'
import { VERIFY_BODY_LIMIT_BYTES } from './http-probe.js'

/** @typedef {import('./check-response.js').Check} Check */

/** What a failed connection says: OpenSSL's reason (`tlsv1 alert no application protocol`) rather than its whole error string. */
const failureOf = (/** @type {Error & { reason?: string }} */ error) => error.reason ?? error.message.trim()

/**
 * HTTP/2 over TLS: ALPN must have chosen `h2`, on TLS 1.3, and HTTP/1.1 over TLS to that port is not served.
 * @type {import('./protocol-verifiers.js').ProtocolVerifier}
 */
export async function verifyH2 (target, scenario) {
  const trusted = clientTls(target)
  if (!trusted) return [noTrust(describeRequest(scenario.request))]
  const checks = await overHttp2(`https://${target.host}:${target.port}`, trusted, target, scenario, (label, session) => {
    const socket = /** @type {tls.TLSSocket} */ (session.socket)
    return [
      {
        request: label,
        check: 'ALPN protocol negotiated',
        ok: session.alpnProtocol === 'h2',
        expected: 'h2',
        actual: session.alpnProtocol ?? null
      },
      {
        request: label,
        check: 'TLS version negotiated',
        ok: socket.getProtocol() === 'TLSv1.3',
        expected: 'TLSv1.3',
        actual: socket.getProtocol()
      }
    ]
  })
  checks.push(await http1NotServed(target, scenario, trusted))
  return checks
}

/**
 * HTTP/2 in cleartext with prior knowledge (the connection preface at once, no upgrade), and HTTP/1.1 to that port not served.
 * @type {import('./protocol-verifiers.js').ProtocolVerifier}
 */
export async function verifyH2c (target, scenario) {
  const checks = await overHttp2(`http://${target.host}:${target.port}`, {}, target, scenario, () => [])
  checks.push(await http1NotServed(target, scenario, null))
  return checks
}

/**
 * @param {string} authority
 * @param {http2.SecureClientSessionOptions} options
 * @param {import('./verify-scenario.js').VerifyTarget} target
 * @param {import('@dyno/scenarios').Scenario} scenario
 * @param {(label: string, session: http2.ClientHttp2Session) => Check[]} connectionChecks
 * @returns {Promise<Check[]>}
 */
async function overHttp2 (authority, options, { timeoutMs, signal }, scenario, connectionChecks) {
  const label = describeRequest(scenario.request)
  /** @type {Check[]} */
  const checks = []
  const session = http2.connect(authority, options)
  // An error after the session is up reaches the stream that was open (and is checked there), or nothing that matters any more.
  session.on('error', () => {})
  const abort = () => session.destroy(new Error(`interrupted by ${String(signal?.reason)}`))
  if (signal?.aborted) abort()
  else signal?.addEventListener('abort', abort, { once: true })
  try {
    try {
      await connected(session, timeoutMs)
    } catch (error) {
      return [
        {
          request: label,
          check: 'HTTP/2 connection',
          ok: false,
          expected: 'an HTTP/2 session',
          actual: failureOf(/** @type {Error} */ (error))
        }
      ]
    }
    checks.push(...connectionChecks(label, session))
    /** @type {Awaited<ReturnType<typeof sendOnStream>>[]} */
    const answers = []
    for (let stream = 1; stream <= 2; stream++) {
      try {
        answers.push(await sendOnStream(session, scenario.request, timeoutMs))
      } catch (error) {
        checks.push({
          request: label,
          check: 'answered',
          ok: false,
          expected: 'a complete HTTP/2 response',
          actual: /** @type {Error} */ (error).message
        })
        break
      }
    }
    const [first, second] = answers
    if (first) checks.push(...checkResponse(label, first, scenario.expect, { framing: false }))
    if (second) {
      checks.push({
        request: label,
        check: 'a second stream on the same connection',
        ok: second.status === scenario.expect.status,
        expected: `answered ${scenario.expect.status}`,
        actual: `answered ${second.status}`
      })
    }
    return checks
  } finally {
    signal?.removeEventListener('abort', abort)
    session.destroy()
  }
}

/** @param {http2.ClientHttp2Session} session @param {number} timeoutMs @returns {Promise<void>} */
export function connected (session, timeoutMs) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no HTTP/2 session within ${timeoutMs} ms`)), timeoutMs)
    const settle = (/** @type {Error | null} */ error) => {
      clearTimeout(timer)
      session.off('connect', onConnect)
      session.off('error', settle)
      session.off('close', onClose)
      if (error) reject(error)
      else resolve()
    }
    const onConnect = () => settle(null)
    const onClose = () => settle(new Error('the connection was closed before an HTTP/2 session was set up'))
    session.once('connect', onConnect)
    session.once('error', settle)
    session.once('close', onClose)
  })
}

/**
 * @param {http2.ClientHttp2Session} session
 * @param {import('@dyno/scenarios').RequestSpec} request
 * @param {number} timeoutMs the whole exchange's, however the SUT trickles it; a body past VERIFY_BODY_LIMIT_BYTES ends it too
 * @returns {Promise<{ status: number, headers: Record<string, string | string[] | undefined>, body: string }>}
 */
export function sendOnStream (session, request, timeoutMs) {
  return new Promise((resolve, reject) => {
    const stream = session.request(
      { ':method': request.method, ':path': request.path, ...request.headers },
      { endStream: request.body === null }
    )
    /** @type {http2.IncomingHttpHeaders & http2.IncomingHttpStatusHeader} */
    let headers = {}
    /** @type {Buffer[]} */
    const chunks = []
    let bytes = 0
    /** @type {string | null} why the client ended the stream */
    let cut = null
    const cancel = (/** @type {string} */ why) => {
      cut = why
      stream.close(http2.constants.NGHTTP2_CANCEL)
    }
    const timer = setTimeout(() => cancel(`no complete answer within ${timeoutMs} ms`), timeoutMs)
    stream.on('response', (received) => { headers = received })
    stream.on('data', (chunk) => {
      bytes += chunk.length
      if (bytes > VERIFY_BODY_LIMIT_BYTES) return cancel(`the body passed ${VERIFY_BODY_LIMIT_BYTES} bytes`)
      chunks.push(chunk)
    })
    stream.on('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    stream.on('close', () => {
      clearTimeout(timer)
      if (cut) return reject(new Error(cut))
      if (headers[':status'] === undefined) return reject(new Error(`no response on the stream (closed with code ${stream.rstCode})`))
      const { ':status': status, ...rest } = headers
      resolve({ status: Number(status), headers: rest, body: Buffer.concat(chunks).toString('utf8') })
    })
    if (request.body !== null && request.body !== undefined) stream.end(request.body)
  })
}

/**
 * The scenario's request in HTTP/1.1 on a connection to the HTTP/2 port (over TLS offering ALPN `http/1.1` only, or in cleartext): the
 * port must refuse it (a failed handshake, a closed connection, bytes that are not HTTP/1.1) or answer it with an error, never 2xx.
 * @param {import('./verify-scenario.js').VerifyTarget} target
 * @param {import('@dyno/scenarios').Scenario} scenario
 * @param {ReturnType<typeof clientTls>} trusted the TLS of the connection; null: cleartext
 * @returns {Promise<Check>}
 */
async function http1NotServed ({ host, port, timeoutMs }, scenario, trusted) {
  const { request } = scenario
  const head = `${request.method} ${request.path} HTTP/1.1\r\nHost: ${trusted?.servername ?? host}:${port}\r\nConnection: close\r\n\r\n`
  const seen = await new Promise((resolve) => {
    /** @type {Buffer[]} */
    const chunks = []
    const socket = trusted ? tls.connect({ host, port, ...trusted, ALPNProtocols: ['http/1.1'] }) : net.connect({ host, port })
    const finish = (/** @type {string | null} */ refused) => {
      clearTimeout(timer)
      socket.destroy()
      resolve({ refused, answer: Buffer.concat(chunks).toString('latin1') })
    }
    const timer = setTimeout(() => finish(`no answer within ${timeoutMs} ms`), timeoutMs)
    let bytes = 0
    socket.once(trusted ? 'secureConnect' : 'connect', () => socket.write(head))
    // What tells whether HTTP/1.1 was served is at its start: the rest is not kept past the body limit.
    socket.on('data', (chunk) => {
      bytes += chunk.length
      if (bytes > VERIFY_BODY_LIMIT_BYTES) return finish(`more than ${VERIFY_BODY_LIMIT_BYTES} bytes`)
      chunks.push(chunk)
    })
    socket.on('error', (error) => finish(`refused: ${failureOf(error)}`))
    socket.on('close', () => finish(null))
  })
  const statusLine = /^HTTP\/1\.[01] (\d{3})[^\r\n]*/.exec(seen.answer)
  const served = statusLine !== null && statusLine[1].startsWith('2')
  /** @type {string} */
  let actual
  if (statusLine) {
    actual = `answered "${statusLine[0]}"${served ? `: ${excerpt(seen.answer.slice(seen.answer.indexOf('\r\n\r\n') + 4))}` : ''}`
  } else if (seen.answer.length > 0) {
    actual = `${seen.answer.length} bytes that are not an HTTP/1.1 response (an HTTP/2 frame), then ${seen.refused ?? 'closed'}`
  } else actual = seen.refused ?? 'closed without an answer'
  return {
    request: `${describeRequest(request)} in HTTP/1.1`,
    check: 'HTTP/1.1 is not served on the HTTP/2 port',
    ok: !served,
    expected: 'refused, or answered with an error status, never 2xx',
    actual
  }
}

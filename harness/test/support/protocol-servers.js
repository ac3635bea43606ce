// @ts-check
// Servers of the protocols the native engine speaks, started in the test's own process on port 0, each counting what it
// served and able to answer wrongly on purpose: HTTP/1.1 in cleartext and over TLS (node:http, node:https), HTTP/2 over TLS with ALPN h2
// only and HTTP/2 in cleartext (node:http2), and a WebSocket echo written here (RFC 6455, as much of it as an echo needs: masked frames in,
// the handshake's accept key, ping, close), so that no WebSocket library has to be added for a test. The certificate is made for
// the test by openssl, its key readable by its owner only.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer as createHttpServer } from 'node:http'
import { createSecureServer, createServer as createH2cServer } from 'node:http2'
import { createServer as createHttpsServer } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const WEBSOCKET_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11'

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
const NAMES = 'subjectAltName=DNS:localhost,IP:127.0.0.1'

/**
 * A certificate for localhost and 127.0.0.1, valid for a day: self-signed, as dyno makes one for a run, or (`signedByCa`) signed by a
 * CA made alongside, whose certificate is then `caFile` (the one to trust).
 * @param {{ signedByCa?: boolean }} [options]
 * @returns {{ certFile: string, keyFile: string, caFile: string, cert: Buffer, key: Buffer, remove: () => void }}
 */
export function makeCertificate ({ signedByCa = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-cert-'))
  const [certFile, keyFile, caFile, caKeyFile, requestFile, extensionsFile] = [
    'cert.pem',
    'key.pem',
    'ca.pem',
    'ca-key.pem',
    'cert.csr',
    'cert.ext'
  ].map((name) => join(dir, name))
  const openssl = (/** @type {string[]} */ args) => execFileSync('openssl', args, { stdio: 'ignore' })
  if (signedByCa) {
    openssl(['req', '-x509', ...EC_KEY, '-days', '1', '-subj', '/CN=dyno test CA', '-keyout', caKeyFile, '-out', caFile])
    openssl(['req', ...EC_KEY, '-subj', '/CN=localhost', '-keyout', keyFile, '-out', requestFile])
    writeFileSync(extensionsFile, `${NAMES}\nbasicConstraints=critical,CA:FALSE\n`)
    openssl([
      'x509',
      '-req',
      '-in',
      requestFile,
      '-CA',
      caFile,
      '-CAkey',
      caKeyFile,
      '-CAcreateserial',
      '-days',
      '1',
      '-extfile',
      extensionsFile,
      '-out',
      certFile
    ])
  } else {
    openssl(['req', '-x509', ...EC_KEY, '-days', '1', '-subj', '/CN=localhost', '-addext', NAMES, '-keyout', keyFile, '-out', certFile])
  }
  for (const file of [keyFile, caKeyFile]) if (existsSync(file)) chmodSync(file, 0o600)
  return {
    certFile,
    keyFile,
    caFile: signedByCa ? caFile : certFile,
    cert: readFileSync(certFile),
    key: readFileSync(keyFile),
    remove: () => rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * @typedef {object} TestServer
 * @property {number} port
 * @property {() => number} served responses (or echoes) sent
 * @property {() => Promise<void>} close stops listening and ends every connection
 *
 * @typedef {object} Answering what every request gets
 * @property {string} body the right body
 * @property {number} [wrongEvery] every n-th answer has a wrong body instead
 * @property {number} [answerAfterMs] each answer this long after its request ended: a service time far beyond what a busy client
 *   takes between an answer and its next request
 */

/**
 * @param {import('node:net').Server} server @param {Set<{ destroy: () => void }>} open
 * @returns {Promise<number>} the port it listens on
 */
function listen (server, open) {
  server.on('connection', (socket) => {
    open.add(socket)
    socket.on('close', () => open.delete(socket))
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(/** @type {import('node:net').AddressInfo} */ (server.address()).port))
  )
}

/** @param {import('node:net').Server} server @param {Set<{ destroy: () => void }>} open */
function closer (server, open) {
  return () => new Promise((resolve) => {
    server.close(() => resolve(undefined))
    for (const socket of open) socket.destroy()
  })
}

/** @param {() => void} answer @param {number | undefined} afterMs */
const answerLater = (answer, afterMs) => {
  if (afterMs) setTimeout(answer, afterMs)
  else answer()
}

/** @param {Answering} answering @returns {() => string} the body of the next answer */
function bodies ({ body, wrongEvery }) {
  let count = 0
  return () => {
    count += 1
    return wrongEvery && count % wrongEvery === 0 ? `${body} (wrong)` : body
  }
}

/**
 * HTTP/1.1, over TLS (`cert` and `key` given; ALPN as node:https sets it, http/1.1 only) or in cleartext.
 * @param {{ cert?: Buffer, key?: Buffer } & Answering} options
 * @returns {Promise<TestServer>}
 */
export async function startHttp1Server ({ cert, key, ...answering }) {
  const next = bodies(answering)
  let served = 0
  /** @type {import('node:http').RequestListener} */
  const answer = (request, response) => {
    request.resume()
    request.on('end', () => answerLater(() => {
      served += 1
      response.writeHead(200, { 'content-type': 'application/json' }).end(next())
    }, answering.answerAfterMs))
  }
  const server = cert && key ? createHttpsServer({ cert, key, minVersion: 'TLSv1.3' }, answer) : createHttpServer(answer)
  const open = new Set()
  return { port: await listen(server, open), served: () => served, close: closer(server, open) }
}

/**
 * HTTP/2, over TLS with ALPN h2 only (`cert` and `key` given) or in cleartext. With `holdUntil`, each connection keeps its requests
 * unanswered until that many are open on it at once, then answers them all: `mostOpen` is then the most streams a connection ever
 * had open (never more than the client keeps in flight, since none closes before the server answers).
 * @param {{ cert?: Buffer, key?: Buffer, holdUntil?: number } & Answering} options
 * @returns {Promise<TestServer & { mostOpen: () => number[] }>} mostOpen: per connection
 */
export async function startHttp2Server ({ cert, key, holdUntil, ...answering }) {
  const next = bodies(answering)
  let served = 0
  /** @type {number[]} */
  const mostOpen = []
  const server = cert && key ? createSecureServer({ cert, key, allowHTTP1: false, minVersion: 'TLSv1.3' }) : createH2cServer()
  server.on('session', (session) => {
    const index = mostOpen.push(0) - 1
    /** @type {import('node:http2').ServerHttp2Stream[]} */
    const held = []
    session.on('stream', (stream) => {
      stream.resume()
      stream.on('end', () => {
        if (!holdUntil) return answerLater(() => answer(stream), answering.answerAfterMs)
        held.push(stream)
        mostOpen[index] = Math.max(mostOpen[index], held.length)
        if (held.length === holdUntil) for (const waiting of held.splice(0)) answer(waiting)
      })
      stream.on('error', () => {})
    })
    session.on('error', () => {})
  })
  /** @param {import('node:http2').ServerHttp2Stream} stream */
  const answer = (stream) => {
    if (stream.destroyed) return
    served += 1
    stream.respond({ ':status': 200, 'content-type': 'application/json' })
    stream.end(next())
  }
  const open = new Set()
  const asNet = /** @type {import('node:net').Server} */ (/** @type {unknown} */ (server))
  return { port: await listen(asNet, open), served: () => served, mostOpen: () => [...mostOpen], close: closer(asNet, open) }
}

/**
 * A WebSocket echo at `/ws` (RFC 6455): a plain GET or another path is answered 404; `wrongAccept` answers the handshake with
 * an accept key that is not the key's; every `wrongEvery`-th message is echoed changed.
 * @param {{ wrongEvery?: number, wrongAccept?: boolean, answerAfterMs?: number }} [options]
 * @returns {Promise<TestServer & { closeCodes: () => number[] }>} closeCodes: the code of each close frame a client sent
 */
export async function startWebSocketEcho ({ wrongEvery, wrongAccept = false, answerAfterMs } = {}) {
  let served = 0
  /** @type {number[]} */
  const closeCodes = []
  const server = createHttpServer((request, response) => response.writeHead(404).end())
  server.on('upgrade', (request, /** @type {import('node:net').Socket} */ socket, head) => {
    // A client may reset the connection after any answer (the engine does after a refused handshake): never an uncaught error here.
    socket.on('error', () => {})
    const key = request.headers['sec-websocket-key']
    if (request.url !== '/ws' || typeof key !== 'string' || request.headers.upgrade?.toLowerCase() !== 'websocket') {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n')
      return
    }
    const accept = createHash('sha1').update(`${wrongAccept ? 'x' : ''}${key}${WEBSOCKET_GUID}`).digest('base64')
    socket.setNoDelay(true)
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`)
    let pending = head
    socket.on('data', (chunk) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
      /** @type {Buffer[]} */
      const out = []
      let frame
      while ((frame = readFrame(pending))) {
        if (frame === 'unmasked') return socket.destroy()
        pending = pending.subarray(frame.length)
        if (frame.opcode === 0x1 || frame.opcode === 0x2) {
          served += 1
          const echo = wrongEvery && served % wrongEvery === 0 ? Buffer.concat([frame.payload, Buffer.from('!')]) : frame.payload
          out.push(serverFrame(frame.opcode, echo))
        } else if (frame.opcode === 0x9) {
          out.push(serverFrame(0xA, frame.payload))
        } else if (frame.opcode === 0x8) {
          closeCodes.push(frame.payload.length >= 2 ? frame.payload.readUInt16BE(0) : 1005)
          out.push(serverFrame(0x8, frame.payload.subarray(0, 2)))
          socket.end(Buffer.concat(out))
          return
        }
      }
      if (out.length === 0) return
      const echo = out.length === 1 ? out[0] : Buffer.concat(out)
      answerLater(() => { if (!socket.destroyed && !socket.writableEnded) socket.write(echo) }, answerAfterMs)
    })
  })
  const open = new Set()
  return { port: await listen(server, open), served: () => served, closeCodes: () => [...closeCodes], close: closer(server, open) }
}

/**
 * The next whole frame a client sent (masked, as every client frame is), unmasked; null until all of it has arrived.
 * @param {Buffer} bytes
 * @returns {{ opcode: number, payload: Buffer, length: number } | 'unmasked' | null} 'unmasked': a frame no client may send
 */
function readFrame (bytes) {
  if (bytes.length < 2) return null
  const opcode = bytes[0] & 0x0f
  let length = bytes[1] & 0x7f
  let at = 2
  if (length === 126) {
    if (bytes.length < 4) return null
    length = bytes.readUInt16BE(2)
    at = 4
  } else if (length === 127) {
    if (bytes.length < 10) return null
    length = Number(bytes.readBigUInt64BE(2))
    at = 10
  }
  if (!(bytes[1] & 0x80)) return 'unmasked'
  if (bytes.length < at + 4 + length) return null
  const mask = bytes.subarray(at, at + 4)
  const payload = Buffer.from(bytes.subarray(at + 4, at + 4 + length))
  for (let index = 0; index < payload.length; index++) payload[index] ^= mask[index % 4]
  return { opcode, payload, length: at + 4 + length }
}

/** @param {number} opcode @param {Buffer} payload @returns {Buffer} a whole, unmasked frame, as a server sends it */
function serverFrame (opcode, payload) {
  if (payload.length < 126) return Buffer.concat([Buffer.from([0x80 | opcode, payload.length]), payload])
  if (payload.length < 65536) return Buffer.concat([Buffer.from([0x80 | opcode, 126, payload.length >> 8, payload.length & 0xff]), payload])
  const head = Buffer.alloc(10)
  head[0] = 0x80 | opcode
  head[1] = 127
  head.writeBigUInt64BE(BigInt(payload.length), 2)
  return Buffer.concat([head, payload])
}

// @ts-check
import { parseHead } from './request.js'
import { CONTINUE, serialize, statusReply } from './reply.js'

/**
 * @typedef {import('./request.js').Request} Request
 * @typedef {import('./reply.js').Reply} Reply
 * @typedef {ReturnType<typeof import('./router.js').createRouter>} Router
 */

/** Request heads above this are refused with 431 (node:http's default maxHeaderSize). */
const MAX_HEAD_BYTES = 16 * 1024
/** Idle connections are closed after this long (node:http's default keepAliveTimeout). */
const IDLE_TIMEOUT_MS = 5000
const HEAD_END = Buffer.from('\r\n\r\n')
const NOT_FOUND = statusReply(404)
const BAD_REQUEST = statusReply(400)
const INTERNAL_ERROR = statusReply(500)

/**
 * One keep-alive TCP connection: buffers what arrives, cuts it into requests (several per chunk
 * when pipelined, one split over several chunks), answers each in order, synchronously.
 */
export class Connection {
  /** @param {import('node:net').Socket} socket @param {Router} router */
  constructor (socket, router) {
    this.socket = socket
    this.router = router
    /** @type {Buffer | null} bytes received but not consumed yet */
    this.rest = null
    /** @type {Request | null} a request whose head is parsed and whose body is still arriving */
    this.pending = null
    this.closing = false
    socket.setTimeout(IDLE_TIMEOUT_MS, () => socket.destroy())
    socket.on('data', (chunk) => this.onData(chunk))
    socket.on('error', () => socket.destroy())
    socket.on('drain', () => socket.resume())
  }

  /** @param {Buffer} chunk */
  onData (chunk) {
    if (this.closing) return
    const data = this.rest === null ? chunk : Buffer.concat([this.rest, chunk])
    const socket = this.socket
    let offset = 0
    socket.cork()
    while (offset < data.length && !this.closing) {
      let request = this.pending
      if (request === null) {
        // A server SHOULD ignore empty lines before a request line (RFC 9112 §2.2).
        while (data[offset] === 13 && data[offset + 1] === 10) offset += 2
        if (offset >= data.length) break
        const headEnd = data.indexOf(HEAD_END, offset)
        if (headEnd === -1 || headEnd - offset > MAX_HEAD_BYTES) {
          if (headEnd !== -1 || data.length - offset > MAX_HEAD_BYTES) this.refuse(431)
          break
        }
        const parsed = parseHead(data.toString('latin1', offset, headEnd))
        if (typeof parsed === 'number') {
          this.refuse(parsed)
          break
        }
        request = parsed
        offset = headEnd + 4
      }
      if (request.contentLength > 0) {
        if (data.length - offset < request.contentLength) {
          if (request.expectContinue && this.pending === null) socket.write(CONTINUE)
          this.pending = request
          break
        }
        request.body = data.toString('utf8', offset, offset + request.contentLength)
        offset += request.contentLength
      }
      this.pending = null
      this.answer(request)
    }
    socket.uncork()
    this.rest = offset < data.length && !this.closing ? data.subarray(offset) : null
    // Pipelining clients that do not read their responses: stop reading until they catch up.
    if (socket.writableNeedDrain) socket.pause()
  }

  /** @param {Request} request */
  answer (request) {
    const match = this.router.find(request.method, request.path)
    /** @type {Reply} */
    let reply
    if (match === null) {
      reply = NOT_FOUND
    } else if (match === 'bad-param') {
      reply = BAD_REQUEST
    } else {
      try {
        reply = match.handler(request, match.params)
      } catch {
        // node:net has no error handling of its own: a throwing handler is answered 500 here.
        reply = INTERNAL_ERROR
      }
    }
    const connection = !request.keepAlive ? 'close' : request.http10 ? 'keep-alive' : null
    this.socket.write(serialize(reply, connection, request.method !== 'HEAD'))
    if (!request.keepAlive) this.close()
  }

  /** Answers a request that cannot be read (malformed, too large, unsupported) and closes. @param {number} status */
  refuse (status) {
    this.socket.write(serialize(statusReply(status), 'close', true))
    this.close()
  }

  close () {
    this.closing = true
    this.pending = null
    this.socket.end()
  }
}

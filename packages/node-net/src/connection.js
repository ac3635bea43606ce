// @ts-check
import { parseHead } from './request.js'
import { CONTINUE, serialize, statusReply } from './reply.js'

/**
 * @typedef {import('./request.js').Request} Request
 * @typedef {import('./reply.js').Reply} Reply
 * @typedef {ReturnType<typeof import('./router.js').createRouter>} Router
 * @typedef {{ text: string | null }} Slot the place of a response whose handler has not settled yet
 */

/** Request heads above this are refused with 431 (node:http's default maxHeaderSize). */
const MAX_HEAD_BYTES = 16 * 1024
/** Idle connections are closed after this long (node:http's default keepAliveTimeout). */
const IDLE_TIMEOUT_MS = 5000
/** Responses a connection may hold back (waiting for an earlier one) before it stops reading requests. */
const MAX_QUEUED_RESPONSES = 256
const HEAD_END = Buffer.from('\r\n\r\n')
const EMPTY = Buffer.alloc(0)
const NOT_FOUND = statusReply(404)
const BAD_REQUEST = statusReply(400)
const INTERNAL_ERROR = statusReply(500)

/**
 * One keep-alive TCP connection: buffers what arrives, cuts it into requests (several per chunk
 * when pipelined, one split over several chunks) and answers each in request order.
 *
 * A handler that returns a Reply is answered at once, written straight to the socket (the hot path).
 * A handler that returns a Promise takes a slot in a queue; while the queue exists, every later
 * response (also a synchronous one, a `100 Continue` or a refusal) waits behind it, and the queue is
 * written out as far as its head is ready each time a promise settles.
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
    /** no more requests are read; the socket ends once every queued response is written */
    this.closing = false
    /** @type {(Slot | string)[] | null} responses waiting for an earlier one, in request order; null: none */
    this.queue = null
    /** reading stopped because the queue is full; it resumes once the queue is written out */
    this.held = false
    // A connection waiting for a handler is not idle: the next write re-arms the timer.
    socket.setTimeout(IDLE_TIMEOUT_MS, () => { if (this.queue === null) socket.destroy() })
    socket.on('data', (chunk) => this.onData(chunk))
    socket.on('error', () => socket.destroy())
    socket.on('drain', () => { if (!this.held) socket.resume() })
  }

  /** @param {Buffer} chunk */
  onData (chunk) {
    if (this.closing) return
    const data = this.rest === null ? chunk : chunk.length === 0 ? this.rest : Buffer.concat([this.rest, chunk])
    const socket = this.socket
    let offset = 0
    socket.cork()
    while (offset < data.length && !this.closing && !this.held) {
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
          if (request.expectContinue && this.pending === null) this.write(CONTINUE)
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
    /** @type {Reply | Promise<Reply>} */
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
      if (reply instanceof Promise) {
        this.answerLater(request, reply)
        return
      }
    }
    this.write(response(request, reply))
    if (!request.keepAlive) this.close()
  }

  /**
   * Queues a slot for the response of an asynchronous handler, filled (and written out with what
   * follows it) when the promise settles; a rejection is answered 500, like a throw.
   * @param {Request} request @param {Promise<Reply>} promise
   */
  answerLater (request, promise) {
    /** @type {Slot} */
    const slot = { text: null }
    const queue = this.queue ??= []
    queue.push(slot)
    promise.then(
      (reply) => { this.fill(slot, response(request, reply)) },
      () => { this.fill(slot, response(request, INTERNAL_ERROR)) }
    )
    if (!request.keepAlive) this.close()
    else if (queue.length >= MAX_QUEUED_RESPONSES) {
      this.held = true
      this.socket.pause()
    }
  }

  /** Writes a response now, or queues it behind the responses still waiting. @param {string} text */
  write (text) {
    if (this.queue === null) this.socket.write(text)
    else this.queue.push(text)
  }

  /** @param {Slot} slot @param {string} text */
  fill (slot, text) {
    slot.text = text
    const socket = this.socket
    if (socket.destroyed) return // the client is gone: nothing more is written or read
    const queue = /** @type {(Slot | string)[]} */ (this.queue)
    if (queue[0] !== slot) return // an earlier response is still waiting
    let index = 0
    socket.cork()
    for (; index < queue.length; index++) {
      const entry = queue[index]
      const ready = typeof entry === 'string' ? entry : entry.text
      if (ready === null) break
      socket.write(ready)
    }
    socket.uncork()
    if (index < queue.length) {
      queue.splice(0, index)
      return
    }
    this.queue = null
    if (this.closing) {
      socket.end()
    } else if (this.held) {
      this.held = false
      socket.resume()
      this.onData(EMPTY) // the requests that arrived while reading was held
    } else if (socket.writableNeedDrain) {
      socket.pause()
    }
  }

  /** Answers a request that cannot be read (malformed, too large, unsupported) and closes. @param {number} status */
  refuse (status) {
    this.write(serialize(statusReply(status), 'close', true))
    this.close()
  }

  /** Reads no more requests, and ends the socket once every queued response is written. */
  close () {
    this.closing = true
    this.pending = null
    if (this.queue === null) this.socket.end()
  }
}

/**
 * @param {Request} request @param {Reply} reply
 * @returns {string} the whole response, with a Connection header when it differs from the version's default
 */
function response (request, reply) {
  const connection = !request.keepAlive ? 'close' : request.http10 ? 'keep-alive' : null
  return serialize(reply, connection, request.method !== 'HEAD')
}

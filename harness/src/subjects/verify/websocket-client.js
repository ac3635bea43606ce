// @ts-check
// A small WebSocket client (RFC 6455) for verification, on node:net and node:crypto: it sends the handshake and exposes what came
// back, so that every part of the exchange is checked as the SUT sent it. Client frames are masked; server frames must not be;
// fragmented messages are joined; a ping is answered with a pong.
import { createHash, randomBytes } from 'node:crypto'
import net from 'node:net'

/** The GUID RFC 6455 appends to the key to make Sec-WebSocket-Accept. */
const ACCEPT_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11'

export const OPCODES = Object.freeze({ continuation: 0x0, text: 0x1, binary: 0x2, close: 0x8, ping: 0x9, pong: 0xa })

/** @param {string} key @returns {string} the Sec-WebSocket-Accept a server must answer `key` with */
export const acceptFor = (key) => createHash('sha1').update(key + ACCEPT_GUID).digest('base64')

/**
 * @typedef {{ kind: 'text' | 'binary' | 'close', data: Buffer }} Message a whole message, or the close frame's payload
 *
 * @typedef {object} WebSocketConnection
 * @property {number} status the status of the handshake's answer
 * @property {Record<string, string>} headers its headers, lower-cased names
 * @property {string} key the Sec-WebSocket-Key that was sent
 * @property {(kind: 'text' | 'binary' | 'close', data: Buffer) => void} send one masked frame
 * @property {(buffer: Buffer) => void} write raw bytes (frames made with `maskedFrame`, several in one write)
 * @property {(timeoutMs: number) => Promise<Message>} next the next message; rejects after `timeoutMs`, on a protocol error, or when
 *   the connection ends
 * @property {(timeoutMs: number) => Promise<boolean>} ended whether the server closes the TCP connection within `timeoutMs`
 * @property {() => void} destroy
 */

/**
 * One masked frame.
 * @param {number} opcode @param {Buffer} payload @returns {Buffer}
 */
export function maskedFrame (opcode, payload) {
  const length = payload.length
  const lengthBytes = length < 126 ? 0 : length < 65536 ? 2 : 8
  const header = Buffer.alloc(2 + lengthBytes + 4)
  header[0] = 0x80 | opcode
  header[1] = 0x80 | (lengthBytes === 0 ? length : lengthBytes === 2 ? 126 : 127)
  if (lengthBytes === 2) header.writeUInt16BE(length, 2)
  if (lengthBytes === 8) header.writeBigUInt64BE(BigInt(length), 2)
  const mask = randomBytes(4)
  mask.copy(header, 2 + lengthBytes)
  const masked = Buffer.alloc(length)
  for (let index = 0; index < length; index++) masked[index] = payload[index] ^ mask[index % 4]
  return Buffer.concat([header, masked])
}

/** The most bytes one message may hold: past it the connection fails, named, and is not read further. */
export const WEBSOCKET_LIMIT_BYTES = 16 * 1024 * 1024
/** The most bytes the head of the answer to the upgrade may hold. */
const HEAD_LIMIT_BYTES = 64 * 1024

/**
 * Opens a connection and sends the upgrade of `path`; resolves once the answer's head is read (whatever its status). `signal` ends the
 * connection at once, as a failure of whatever waits on it.
 * @param {{ host: string, port: number, path: string, headers?: Record<string, string>, timeoutMs: number, signal?: AbortSignal }} options
 * @returns {Promise<WebSocketConnection>}
 */
export function openWebSocket ({ host, port, path, headers = {}, timeoutMs, signal }) {
  const key = randomBytes(16).toString('base64')
  const socket = net.connect({ host, port })
  socket.setNoDelay(true)
  const interrupt = () => socket.destroy(new Error(`interrupted by ${String(signal?.reason)}`))
  if (signal?.aborted) queueMicrotask(interrupt)
  else signal?.addEventListener('abort', interrupt, { once: true })
  socket.once('close', () => signal?.removeEventListener('abort', interrupt))
  let buffered = Buffer.alloc(0)
  /** @type {Buffer[]} what arrived since `buffered` was last joined, kept apart until a frame can be read: each byte copied once */
  let arriving = []
  let arrivingBytes = 0
  /** how many bytes `buffered` must hold before the next frame can be read */
  let neededBytes = 2
  /** @type {Message[]} */
  const messages = []
  /** @type {Error | null} */
  let failure = null
  let closed = false
  /** @type {(() => void) | null} */
  let wake = null
  // The waiter is taken before it is called: a waiter that arms itself again while called stays armed.
  const notify = () => {
    const waiting = wake
    wake = null
    waiting?.()
  }
  /** @type {{ kind: 'text' | 'binary', parts: Buffer[] } | null} */
  let fragmented = null

  const readFrames = () => {
    while (true) {
      neededBytes = 2
      if (buffered.length < 2) return
      const fin = (buffered[0] & 0x80) !== 0
      const opcode = buffered[0] & 0x0f
      const masked = (buffered[1] & 0x80) !== 0
      let length = buffered[1] & 0x7f
      let offset = 2
      if (length === 126) {
        neededBytes = 4
        if (buffered.length < 4) return
        length = buffered.readUInt16BE(2)
        offset = 4
      } else if (length === 127) {
        neededBytes = 10
        if (buffered.length < 10) return
        length = Number(buffered.readBigUInt64BE(2))
        offset = 10
      }
      if (masked) {
        failure = new Error('the server sent a masked frame (RFC 6455: a server must not mask)')
        return socket.destroy()
      }
      const heldBytes = length + (fragmented?.parts.reduce((sum, part) => sum + part.length, 0) ?? 0)
      if (heldBytes > WEBSOCKET_LIMIT_BYTES) {
        failure = new Error(`the server sent a message of more than ${WEBSOCKET_LIMIT_BYTES} bytes`)
        return socket.destroy()
      }
      if (buffered.length < offset + length) {
        neededBytes = offset + length
        return
      }
      const payload = buffered.subarray(offset, offset + length)
      buffered = buffered.subarray(offset + length)
      if (opcode === OPCODES.ping) socket.write(maskedFrame(OPCODES.pong, payload))
      else if (opcode === OPCODES.close) messages.push({ kind: 'close', data: Buffer.from(payload) })
      else if (opcode === OPCODES.text || opcode === OPCODES.binary) {
        const kind = opcode === OPCODES.text ? 'text' : 'binary'
        if (fin) messages.push({ kind, data: Buffer.from(payload) })
        else fragmented = { kind, parts: [Buffer.from(payload)] }
      } else if (opcode === OPCODES.continuation && fragmented) {
        fragmented.parts.push(Buffer.from(payload))
        if (fin) {
          messages.push({ kind: fragmented.kind, data: Buffer.concat(fragmented.parts) })
          fragmented = null
        }
      } else if (opcode !== OPCODES.pong) {
        failure = new Error(`the server sent a frame of opcode ${opcode}, which RFC 6455 does not define here`)
        return socket.destroy()
      }
    }
  }

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`no answer to the upgrade within ${timeoutMs} ms`)), timeoutMs)
    const fail = (/** @type {Error} */ error) => {
      clearTimeout(timer)
      socket.destroy()
      reject(error)
    }
    /** @param {Buffer} chunk */
    const onHead = (chunk) => {
      buffered = Buffer.concat([buffered, chunk])
      const end = buffered.indexOf('\r\n\r\n')
      if (end === -1 && buffered.length > HEAD_LIMIT_BYTES) {
        return fail(new Error(`the answer to the upgrade passed ${HEAD_LIMIT_BYTES} bytes without ending its head`))
      }
      if (end === -1) return
      clearTimeout(timer)
      socket.off('data', onHead)
      const [statusLine, ...lines] = buffered.subarray(0, end).toString('latin1').split('\r\n')
      buffered = buffered.subarray(end + 4)
      /** @type {Record<string, string>} */
      const responseHeaders = Object.create(null)
      for (const line of lines) {
        const colon = line.indexOf(':')
        if (colon > 0) responseHeaders[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
      }
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0)
      socket.on('data', (more) => {
        arriving.push(more)
        arrivingBytes += more.length
        if (buffered.length + arrivingBytes < neededBytes) return
        buffered = Buffer.concat([buffered, ...arriving])
        arriving = []
        arrivingBytes = 0
        readFrames()
        notify()
      })
      readFrames()
      resolve(connection(status, responseHeaders))
    }
    socket.once('connect', () => {
      const head = [
        `GET ${path} HTTP/1.1`,
        `Host: ${host}:${port}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Key: ${key}`,
        'Sec-WebSocket-Version: 13',
        ...Object.entries(headers)
          .filter(([name]) => !/^(upgrade|connection|sec-websocket-(key|version))$/i.test(name))
          .map(([name, value]) => `${name}: ${value}`)
      ]
      socket.write(head.join('\r\n') + '\r\n\r\n')
    })
    socket.on('data', onHead)
    socket.on('error', (error) => {
      failure ??= error
      notify()
      fail(error)
    })
    socket.on('close', () => {
      closed = true
      notify()
      fail(new Error('the connection was closed before the upgrade was answered'))
    })
  })

  /** @param {number} status @param {Record<string, string>} responseHeaders @returns {WebSocketConnection} */
  function connection (status, responseHeaders) {
    const waitFor = (/** @type {() => boolean} */ ready, /** @type {number} */ timeoutMs, /** @type {string} */ what) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          wake = null
          reject(new Error(`${what} within ${timeoutMs} ms`))
        }, timeoutMs)
        const check = () => {
          if (ready()) {
            clearTimeout(timer)
            return resolve(undefined)
          }
          if (failure || closed) {
            clearTimeout(timer)
            return reject(failure ?? new Error('the connection was closed'))
          }
          wake = check
        }
        check()
      })
    return {
      status,
      headers: responseHeaders,
      key,
      send: (kind, data) => socket.write(maskedFrame(OPCODES[kind], data)),
      write: (buffer) => socket.write(buffer),
      async next (timeoutMs) {
        await waitFor(() => messages.length > 0, timeoutMs, 'no message')
        return /** @type {Message} */ (messages.shift())
      },
      async ended (timeoutMs) {
        try {
          await waitFor(() => closed, timeoutMs, 'still open')
          return true
        } catch {
          return closed
        }
      },
      destroy: () => socket.destroy()
    }
  }
}

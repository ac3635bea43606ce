// @ts-check
// WebSocket: a GET without the upgrade refused with a 4xx, the handshake's accept key, a text and a binary message echoed as they were,
// a burst echoed whole and in order, and the close answered with the code sent.
import http from 'node:http'
import { sendProbe } from './http-probe.js'
import { excerpt } from './check-response.js'
import { OPCODES, acceptFor, maskedFrame, openWebSocket } from './websocket-client.js'

/** @typedef {import('./check-response.js').Check} Check */

/** @param {import('./websocket-client.js').Message} message */
const shown = (message) => message.kind === 'binary'
  ? `binary, ${message.data.length} bytes${message.data.length <= 16 ? ` (${message.data.toString('hex')})` : ''}`
  : `${message.kind} ${JSON.stringify(excerpt(message.data.toString('utf8')))}`

/**
 * @typedef {import('@dyno/scenarios').WebSocketExchange} WebSocketExchange
 *
 * @typedef {object} Conversation an open connection, what the scenario expects of it, and where its checks go
 * @property {import('./websocket-client.js').WebSocketConnection} socket
 * @property {WebSocketExchange} exchange
 * @property {number} timeoutMs for each message, and for the connection's end
 * @property {(check: string, ok: boolean, expected: unknown, actual: unknown) => void} add a check of the exchange
 * @property {(check: string) => Promise<import('./websocket-client.js').Message | null>} next the next message; null when none came,
 *   the failure added as the check named
 */

/**
 * The exchange over the connection, step by step: each adds its checks and says whether the next can follow.
 * @type {Array<(talk: Conversation) => boolean | Promise<boolean>>}
 */
const EXCHANGE_STEPS = [handshakeAnswered, textEchoed, binaryEchoed, burstEchoedInOrder, closeAnswered]

/**
 * @type {import('./protocol-verifiers.js').ProtocolVerifier}
 */
export async function verifyWebSocket ({ host, port, timeoutMs, signal }, scenario) {
  const exchange = /** @type {WebSocketExchange} */ (scenario.websocket)
  const label = `WebSocket ${exchange.path}`
  /** @type {Check[]} */
  const checks = [await plainGetRefused({ host, port, timeoutMs, signal }, exchange)]
  const add = (/** @type {string} */ check, /** @type {boolean} */ ok, /** @type {unknown} */ expected, /** @type {unknown} */ actual) =>
    checks.push({ request: label, check, ok, expected, actual })

  let socket
  try {
    socket = await openWebSocket({ host, port, path: exchange.path, headers: scenario.request.headers, timeoutMs, signal })
  } catch (error) {
    add('handshake', false, '101 Switching Protocols', /** @type {Error} */ (error).message)
    return checks
  }
  try {
    const talk = conversation(socket, { exchange, timeoutMs, add })
    for (const step of EXCHANGE_STEPS) if (!(await step(talk))) break
    return checks
  } finally {
    socket.destroy()
  }
}

/**
 * A GET of the path without the upgrade, which must be refused with a status in the scenario's range.
 * @param {{ host: string, port: number, timeoutMs: number, signal?: AbortSignal }} target @param {WebSocketExchange} exchange
 * @returns {Promise<Check>}
 */
async function plainGetRefused ({ host, port, timeoutMs, signal }, exchange) {
  const { min, max } = exchange.plainRequestStatus
  const agent = new http.Agent({ keepAlive: false })
  try {
    const plain = await sendProbe({ host, port, agent, timeoutMs, signal }, { method: 'GET', path: exchange.path, headers: {}, body: null })
    return {
      request: `GET ${exchange.path}`,
      check: 'a GET without an upgrade is refused',
      ok: plain.status >= min && plain.status <= max,
      expected: `a status from ${min} to ${max}`,
      actual: plain.status
    }
  } catch (error) {
    return {
      request: `GET ${exchange.path}`,
      check: 'a GET without an upgrade is refused',
      ok: false,
      expected: `a status from ${min} to ${max}`,
      actual: /** @type {Error} */ (error).message
    }
  } finally {
    agent.destroy()
  }
}

/**
 * @param {import('./websocket-client.js').WebSocketConnection} socket
 * @param {{ exchange: WebSocketExchange, timeoutMs: number, add: Conversation['add'] }} options
 * @returns {Conversation}
 */
function conversation (socket, { exchange, timeoutMs, add }) {
  return {
    socket,
    exchange,
    timeoutMs,
    add,
    next: async (check) => {
      try {
        return await socket.next(timeoutMs)
      } catch (error) {
        add(check, false, 'a message', /** @type {Error} */ (error).message)
        return null
      }
    }
  }
}

/**
 * The answer to the upgrade: 101, the accept key of the key sent, and `Upgrade: websocket`.
 * @param {Conversation} talk @returns {boolean} whether it switched protocols
 */
function handshakeAnswered ({ socket, add }) {
  add('handshake status', socket.status === 101, 101, socket.status)
  if (socket.status !== 101) return false
  const accept = acceptFor(socket.key)
  add('Sec-WebSocket-Accept', socket.headers['sec-websocket-accept'] === accept, accept, socket.headers['sec-websocket-accept'] ?? null)
  add('Upgrade: websocket', /^websocket$/i.test(socket.headers.upgrade ?? ''), 'websocket', socket.headers.upgrade ?? null)
  return true
}

/** @param {Conversation} talk @returns {Promise<boolean>} whether a message came back */
async function textEchoed ({ socket, exchange, add, next }) {
  socket.send('text', Buffer.from(exchange.text))
  const text = await next('text message echoed')
  if (!text) return false
  const textOk = text.kind === 'text' && text.data.toString('utf8') === exchange.text
  add('text message echoed', textOk, `text ${JSON.stringify(exchange.text)}`, shown(text))
  return true
}

/** @param {Conversation} talk @returns {Promise<boolean>} whether a message came back */
async function binaryEchoed ({ socket, exchange, add, next }) {
  const binary = Buffer.from(exchange.binaryBase64, 'base64')
  socket.send('binary', binary)
  const echoedBinary = await next('binary message echoed')
  if (!echoedBinary) return false
  const firstDifference = [...binary].findIndex((byte, index) => echoedBinary.data[index] !== byte)
  add(
    'binary message echoed',
    echoedBinary.kind === 'binary' && echoedBinary.data.equals(binary),
    `binary, the ${binary.length} bytes sent`,
    echoedBinary.kind === 'binary' && !echoedBinary.data.equals(binary)
      ? `binary, ${echoedBinary.data.length} bytes${firstDifference === -1 ? '' : `, differing first at byte ${firstDifference}`}`
      : shown(echoedBinary)
  )
  return true
}

/**
 * The burst's messages, sent in one write, echoed whole and in order; judged only when every one came back.
 * @param {Conversation} talk @returns {Promise<true>} the close follows, whatever came back
 */
async function burstEchoedInOrder ({ socket, exchange, add, next }) {
  socket.write(Buffer.concat(exchange.burst.map((message) => maskedFrame(OPCODES.text, Buffer.from(message)))))
  /** @type {string[]} */
  const burst = []
  for (let index = 0; index < exchange.burst.length; index++) {
    const message = await next(`burst of ${exchange.burst.length} echoed in order`)
    if (!message) break
    burst.push(message.kind === 'text' ? message.data.toString('utf8') : `(${shown(message)})`)
  }
  if (burst.length === exchange.burst.length) {
    const outOfPlace = burst.findIndex((message, index) => message !== exchange.burst[index])
    const expected = `${JSON.stringify(exchange.burst[0])} … ${JSON.stringify(exchange.burst.at(-1))}, in that order`
    const actual = outOfPlace === -1
      ? 'in order'
      : `message ${outOfPlace + 1} was ${JSON.stringify(burst[outOfPlace])}, not ${JSON.stringify(exchange.burst[outOfPlace])}`
    add(`burst of ${exchange.burst.length} echoed in order`, outOfPlace === -1, expected, actual)
  }
  return true
}

/**
 * The close, answered with the code sent, and the TCP connection closed by the server after it.
 * @param {Conversation} talk @returns {Promise<boolean>} whether an answer came
 */
async function closeAnswered ({ socket, exchange, timeoutMs, add, next }) {
  const code = Buffer.alloc(2)
  code.writeUInt16BE(exchange.closeCode)
  socket.send('close', code)
  const close = await next('close answered')
  if (!close) return false
  const closeCode = close.kind === 'close' && close.data.length >= 2 ? close.data.readUInt16BE(0) : null
  add('close answered with the same code', closeCode === exchange.closeCode, `a close frame with ${exchange.closeCode}`,
    close.kind === 'close' ? (closeCode === null ? 'a close frame without a code' : `a close frame with ${closeCode}`) : shown(close))
  const ended = await socket.ended(timeoutMs)
  add(
    'connection closed after the close',
    ended,
    'the server closes the TCP connection',
    ended ? 'closed' : `still open after ${timeoutMs} ms`
  )
  return true
}

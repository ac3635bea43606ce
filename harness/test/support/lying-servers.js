// @ts-check
// Servers that lie to a load engine on purpose, on 127.0.0.1 and port 0, written on bare sockets (node:net) so that nothing between
// them and the engine corrects the lie: every request read is answered with the same bytes, however impossible they are, or never
// answered at all. Each counts the requests it read, and closes every connection it holds when closed.
import { createServer } from 'node:net'

/** The end of a request's head; the engine's requests of these tests carry no body. */
const HEAD_END = '\r\n\r\n'
/** The most a connection's unanswered bytes are kept: enough for a request head, bounded against a client that never ends one. */
const MAX_PENDING_CHARS = 64 * 1024

/**
 * @typedef {object} LyingServer
 * @property {number} port
 * @property {() => number} requests the request heads it has read
 * @property {() => Promise<void>} close
 */

/**
 * Answers every request head it reads with `answer`, written in pieces of at most `pieceBytes` (each after the last was taken, so that a
 * large answer is never held whole in the socket's queue) until the connection ends.
 * @param {Buffer | Buffer[]} answer one buffer, or the pieces of one
 * @returns {Promise<LyingServer>}
 */
export function startLyingServer (answer) {
  const pieces = Array.isArray(answer) ? answer : [answer]
  return serve((socket, count) => {
    let pending = ''
    socket.on('data', (chunk) => {
      pending = (pending + chunk.toString('latin1')).slice(-MAX_PENDING_CHARS)
      let end
      while ((end = pending.indexOf(HEAD_END)) >= 0) {
        pending = pending.slice(end + HEAD_END.length)
        count()
        writePieces(socket, pieces)
      }
    })
  })
}

/**
 * Takes every connection and reads what it sends, and never answers: a WebSocket upgrade (or any request) left without a word.
 * @returns {Promise<LyingServer>}
 */
export function startSilentServer () {
  return serve((socket, count) => {
    socket.on('data', (chunk) => {
      if (chunk.includes(HEAD_END)) count()
    })
  })
}

/**
 * @param {import('node:net').Socket} socket @param {Buffer[]} pieces
 */
function writePieces (socket, pieces) {
  let index = 0
  const next = () => {
    while (index < pieces.length && !socket.destroyed) {
      const more = socket.write(pieces[index++])
      if (!more) return socket.once('drain', next)
    }
  }
  next()
}

/**
 * @param {(socket: import('node:net').Socket, count: () => void) => void} onConnection
 * @returns {Promise<LyingServer>}
 */
async function serve (onConnection) {
  let requests = 0
  /** @type {Set<import('node:net').Socket>} */
  const open = new Set()
  const server = createServer((socket) => {
    open.add(socket)
    socket.on('close', () => open.delete(socket))
    // The engine drops a connection that lied: a reset is expected, never an uncaught error.
    socket.on('error', () => {})
    onConnection(socket, () => { requests += 1 })
  })
  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve(undefined))
  })
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('the lying server has no port')
  return {
    port: address.port,
    requests: () => requests,
    close: () => new Promise((resolve) => {
      for (const socket of open) socket.destroy()
      server.close(() => resolve())
    })
  }
}

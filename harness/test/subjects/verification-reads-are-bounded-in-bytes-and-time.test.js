// @ts-check
// Every read verification makes of a SUT ends: within the exchange's own deadline however slowly the SUT trickles its answer, at the
// first byte past the limit of a body or a message however much the SUT sends, and at once when the run is interrupted; and what a
// SUT writes on stderr is kept bounded, each chunk read once, its control characters escaped before a terminal sees them. Each SUT
// here is a hand-made server on 127.0.0.1 that lies in one way.
import net from 'node:net'
import { SCENARIOS } from '@dyno/scenarios'
import { afterEach, describe, expect, it } from 'vitest'
import { LINE_LIMIT_CHARS, LineTail } from '../../src/platform/process/line-tail.js'
import { VERIFY_BODY_LIMIT_BYTES } from '../../src/subjects/verify/http-probe.js'
import { verifyScenario } from '../../src/subjects/verify/verify-scenario.js'
import { acceptFor, WEBSOCKET_LIMIT_BYTES } from '../../src/subjects/verify/websocket-client.js'

const scenarioNamed = (/** @type {string} */ name) => /** @type {import('@dyno/scenarios').Scenario} */ (
  SCENARIOS.find((scenario) => scenario.name === name))

/** @type {{ server: net.Server, sockets: Set<net.Socket> }[]} */
const servers = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map(({ server, sockets }) => new Promise((resolve) => {
    server.close(resolve)
    for (const socket of sockets) socket.destroy()
  })))
})

/**
 * A server on 127.0.0.1, port 0, that does `onConnection` with each socket; every socket it holds is ended with it.
 * @param {(socket: net.Socket) => void} onConnection @returns {Promise<number>} its port
 */
async function lyingServer (onConnection) {
  /** @type {Set<net.Socket>} */
  const sockets = new Set()
  const server = net.createServer((socket) => {
    sockets.add(socket)
    socket.on('error', () => {})
    socket.on('close', () => sockets.delete(socket))
    onConnection(socket)
  })
  servers.push({ server, sockets })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)))
  return /** @type {net.AddressInfo} */ (server.address()).port
}

/** @param {net.Socket} socket @param {() => void} then once a request's head has arrived */
const onRequest = (socket, then) => {
  let seen = ''
  socket.on('data', (chunk) => {
    seen += chunk.toString('latin1')
    if (seen.includes('\r\n\r\n')) {
      seen = ''
      then()
    }
  })
}

/**
 * The first failed check's actual value of a verification.
 * @param {import('../../src/subjects/verify/verify-scenario.js').Verification} verification
 */
const firstFailure = (verification) => String(verification.checks.find((check) => !check.ok)?.actual)

describe('verification of a SUT that lies', () => {
  it('ends within its deadline when the SUT trickles its answer a byte at a time, the socket never idle', async () => {
    const port = await lyingServer((socket) => onRequest(socket, () => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n')
      const drip = setInterval(() => socket.destroyed ? clearInterval(drip) : socket.write('x'), 50)
      socket.on('close', () => clearInterval(drip))
    }))
    const verification = await verifyScenario({ host: '127.0.0.1', port, timeoutMs: 600 }, scenarioNamed('json'))
    expect(verification.passed).toBe(false)
    expect(firstFailure(verification)).toBe('no complete answer within 600 ms')
  })

  it('stops reading a body at the first byte past its limit, and names the limit', async () => {
    const port = await lyingServer((socket) => onRequest(socket, () => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n')
      const chunk = Buffer.alloc(1024 * 1024, 0x61)
      const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')])
      // Endless, as fast as the socket drains: only the client's limit ends it.
      const pump = () => { while (!socket.destroyed && socket.write(frame)); }
      socket.on('drain', pump)
      pump()
    }))
    const verification = await verifyScenario({ host: '127.0.0.1', port, timeoutMs: 20_000 }, scenarioNamed('json'))
    expect(firstFailure(verification)).toBe(`the body passed ${VERIFY_BODY_LIMIT_BYTES} bytes`)
  })

  it('ends every exchange at once when the run is interrupted, whatever its deadline', async () => {
    const port = await lyingServer(() => {})
    const controller = new AbortController()
    const startedMs = performance.now()
    const verifying = verifyScenario({ host: '127.0.0.1', port, timeoutMs: 60_000, signal: controller.signal }, scenarioNamed('json'))
    setTimeout(() => controller.abort('SIGINT'), 100)
    const verification = await verifying
    expect(firstFailure(verification)).toBe('interrupted by SIGINT')
    // Its deadline was a minute: what ended it was the interruption (bounded generously: a busy machine is slow, never a minute).
    expect(performance.now() - startedMs).toBeLessThan(30_000)
  })

  it('refuses a WebSocket message longer than its limit before reading it, and a handshake that never ends its head', async () => {
    const hugeFrame = Buffer.alloc(10)
    hugeFrame[0] = 0x81
    hugeFrame[1] = 127
    hugeFrame.writeBigUInt64BE(2n ** 40n, 2)
    const port = await lyingServer((socket) => {
      let seen = ''
      socket.on('data', (chunk) => {
        seen += chunk.toString('latin1')
        if (!seen.includes('\r\n\r\n')) return
        if (!seen.startsWith('GET /ws HTTP/1.1') || !/upgrade: websocket/i.test(seen)) {
          socket.end('HTTP/1.1 426 Upgrade Required\r\nContent-Length: 0\r\n\r\n')
          return
        }
        const key = /sec-websocket-key: (\S+)/i.exec(seen)?.[1] ?? ''
        seen = ''
        socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
          `Sec-WebSocket-Accept: ${acceptFor(key)}\r\n\r\n`)
        socket.write(hugeFrame)
      })
    })
    const verification = await verifyScenario({ host: '127.0.0.1', port, timeoutMs: 5000 }, scenarioNamed('ws-echo'))
    expect(verification.passed).toBe(false)
    expect(verification.checks.map((check) => String(check.actual)))
      .toContain(`the server sent a message of more than ${WEBSOCKET_LIMIT_BYTES} bytes`)
  })
})

describe("a SUT's stderr", () => {
  it('is kept a line of at most its limit, however much is written without a newline, each chunk read once', () => {
    const tail = new LineTail(3)
    const chunk = 'y'.repeat(64 * 1024)
    // 64 MiB without a newline: read once each, it is kept as the line's start and counted.
    for (let written = 0; written < 1024; written++) tail.push(chunk)
    const [line] = tail.snapshot()
    expect(line.startsWith('y'.repeat(LINE_LIMIT_CHARS))).toBe(true)
    expect(line).toBe(`${'y'.repeat(LINE_LIMIT_CHARS)} … (${1024 * chunk.length - LINE_LIMIT_CHARS} more characters)`)
    tail.push('\nthe next line\n')
    expect(tail.snapshot()).toEqual([line, 'the next line'])
  })

  it('reaches a terminal with its control characters escaped, its CRLF endings as lines, and its secrets masked', () => {
    const tail = new LineTail()
    tail.push('\u001b[2J\u001b]0;owned\u0007cleared\r\nredis://:s3cret@127.0.0.1:6379 refused\r\n')
    const lines = tail.snapshot()
    expect(lines[0]).toBe('\\x1b[2J\\x1b]0;owned\\x07cleared')
    expect(lines[1]).not.toContain('s3cret')
    // eslint-disable-next-line no-control-regex
    expect(tail.format()).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/)
  })
})

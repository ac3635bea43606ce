// @ts-check
// The round trip between the load host and a SUT on another host, measured before load. Over HTTP/1.1 in cleartext: small requests one
// after another over one kept-alive connection, timed from the request's write to the response's end; each round trip holds the link
// twice and the SUT's handling of one plaintext request, which on a link of any length is the smaller part. A SUT served in another
// protocol (TLS, HTTP/2, WebSocket) does not answer a plain request on that port: there each round trip is the set-up of a TCP
// connection, one after another, timed from the connect to the SUT's kernel's answer (its SYN-ACK), the SUT's code not involved.
import { Agent, request } from 'node:http'
import { connect } from 'node:net'
import { quantileSorted } from 'simple-statistics'
import { DynoError } from '../errors.js'
import { roundTo } from '../util/numbers.js'

/** Enough round trips for a p99 of some meaning, few enough to take well under a second on a LAN. */
export const RTT_SAMPLES = 300
const RTT_PATH = '/'

/** How a round trip is timed, by what the SUT's port speaks: `http` for HTTP/1.1 in cleartext, `tcp` for any other. */
export const RTT_METHODS = Object.freeze({
  http: `GET ${RTT_PATH} (plaintext) one after another over one kept-alive connection, write to end of response`,
  tcp: 'TCP connection set-up one after another, connect to the server kernel\'s answer (SYN to SYN-ACK), closed at once'
})

/**
 * @typedef {object} LinkRtt
 * @property {string} from the load host
 * @property {string} to the SUT's host
 * @property {string} method
 * @property {number} samples
 * @property {number} medianUs
 * @property {number} p99Us
 * @property {number} minUs
 * @property {number} maxUs
 */

/**
 * @param {{ address: string, port: number, from: string, to: string, method?: keyof typeof RTT_METHODS, samples?: number,
 *   timeoutMs?: number }} target
 * @returns {Promise<LinkRtt>}
 * @throws {DynoError} DYNO_ERR_HOST_LOST when a request gets no answer
 */
export async function measureLinkRtt ({ address, port, from, to, method = 'http', samples = RTT_SAMPLES, timeoutMs = 5000 }) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  /** @type {number[]} */
  const rttUs = []
  try {
    // The first request opens the connection (its handshake is not a round trip of the kept-alive link), and the first connect may
    // wait for the neighbour's address: not counted.
    for (let index = 0; index <= samples; index++) {
      const elapsedUs = method === 'tcp'
        ? await oneConnect({ address, port, timeoutMs })
        : await oneRoundTrip({ address, port, agent, timeoutMs })
      if (index > 0) rttUs.push(elapsedUs)
    }
  } catch (error) {
    throw new DynoError(
      'DYNO_ERR_HOST_LOST',
      `no round trip from ${from} to ${address}:${port} (${to}): ${/** @type {Error} */ (error).message}`,
      { cause: error }
    )
  } finally {
    agent.destroy()
  }
  rttUs.sort((a, b) => a - b)
  return {
    from,
    to,
    method: RTT_METHODS[method],
    samples: rttUs.length,
    medianUs: roundTo(quantileSorted(rttUs, 0.5), 1),
    p99Us: roundTo(quantileSorted(rttUs, 0.99), 1),
    minUs: roundTo(rttUs[0], 1),
    maxUs: roundTo(rttUs[rttUs.length - 1], 1)
  }
}

/** @param {{ address: string, port: number, agent: Agent, timeoutMs: number }} target @returns {Promise<number>} microseconds */
function oneRoundTrip ({ address, port, agent, timeoutMs }) {
  return new Promise((resolve, reject) => {
    const startedAt = process.hrtime.bigint()
    const outgoing = request({ host: address, port, path: RTT_PATH, agent, timeout: timeoutMs }, (response) => {
      response.resume()
      response.once('end', () => resolve(Number(process.hrtime.bigint() - startedAt) / 1000))
      response.once('error', reject)
    })
    outgoing.once('timeout', () => outgoing.destroy(new Error(`no answer from ${address}:${port} within ${timeoutMs} ms`)))
    outgoing.once('error', reject)
    outgoing.end()
  })
}

/** @param {{ address: string, port: number, timeoutMs: number }} target @returns {Promise<number>} microseconds */
function oneConnect ({ address, port, timeoutMs }) {
  return new Promise((resolve, reject) => {
    const startedAt = process.hrtime.bigint()
    const socket = connect({ host: address, port, timeout: timeoutMs })
    socket.once('connect', () => {
      const elapsedUs = Number(process.hrtime.bigint() - startedAt) / 1000
      socket.destroy()
      resolve(elapsedUs)
    })
    socket.once('timeout', () => socket.destroy(new Error(`no connection to ${address}:${port} within ${timeoutMs} ms`)))
    socket.once('error', reject)
  })
}

// @ts-check
// A fixed number of requests, not a duration: the instruction count of a SUT is taken over a known number of
// responses, at low concurrency, each checked as under any load. They are sent in the scenario's protocol, each of the
// `concurrency` lanes one connection kept open across the sends of a count: HTTP/1.1 in cleartext or over TLS (node:http and
// node:https with keep-alive), HTTP/2 over TLS or in cleartext (one node:http2 session per lane, one stream at a time), or WebSocket
// (one connection per lane, a message and its echo at a time: a WebSocket count is per message). Over TLS the run's certificate is
// trusted, as verification trusts it.
import http from 'node:http'
import http2 from 'node:http2'
import https from 'node:https'
import { nthRequest } from '@dyno/scenarios'
import { DynoError } from '../../../platform/errors.js'
import { loadBodyModule } from '../../../subjects/verify/body-module.js'
import { bodyVerifier } from '../../../subjects/verify/body-verifier.js'
import { connected, sendOnStream } from '../../../subjects/verify/h2-exchange.js'
import { clientTls } from '../../../subjects/verify/http1-exchange.js'
import { sendProbe } from '../../../subjects/verify/http-probe.js'
import { openWebSocket } from '../../../subjects/verify/websocket-client.js'

/**
 * @typedef {object} RequestCounts
 * @property {number} responses responses (WebSocket: echoes)
 * @property {number} mismatches responses whose body did not match the scenario (an echo that differs from the message)
 * @property {number} unexpectedStatus responses whose status was not the scenario's
 * @property {number} errors requests that got no response
 *
 * @typedef {{ status: number, body: string }} Answer
 * @typedef {object} Lane one connection, one exchange at a time
 * @property {(request: import('@dyno/scenarios').RequestSpec) => Promise<Answer>} exchange the request (a WebSocket lane: the
 *   scenario's message), and its answer
 * @property {() => void} close
 *
 * @typedef {object} Transport how the requests of one protocol are sent: lanes opened as they are first needed, kept until close
 * @property {() => Lane} lane
 * @property {() => void} close
 *
 * @typedef {{ port: number, scenario: import('@dyno/scenarios').Scenario, concurrency: number, timeoutMs: number,
 *   trust: { caFile: string, serverName: string } | null }} ClientSettings
 *
 * @typedef {object} RequestSender
 * @property {(count: number) => Promise<RequestCounts>} send `count` requests over the lanes, each lane waiting for its answer
 * @property {() => void} close closes every lane's connection
 */

const HOST = '127.0.0.1'
/** The status an exchange of a WebSocket count answers with when a text message came back. */
const ECHOED = 200

/** @type {Record<string, (settings: ClientSettings) => Transport>} the transport of each protocol of the contract */
const TRANSPORTS = {
  http1: (settings) => http1Transport(settings, new http.Agent({ keepAlive: true, maxSockets: settings.concurrency })),
  tls: (settings) => http1Transport(settings,
    new https.Agent({ keepAlive: true, maxSockets: settings.concurrency, ...trusted(settings), ALPNProtocols: ['http/1.1'] })),
  h2: (settings) => http2Transport(settings, `https://${HOST}:${settings.port}`, trusted(settings)),
  h2c: (settings) => http2Transport(settings, `http://${HOST}:${settings.port}`, {}),
  ws: webSocketTransport
}

/**
 * Opens the sender of a count: the same connections serve every `send` until `close`.
 * @param {ClientSettings} settings
 * @returns {RequestSender}
 */
export function requestSender (settings) {
  const transport = TRANSPORTS[settings.scenario.protocol](settings)
  const { scenario } = settings
  // A WebSocket echo is checked against the message sent; its "status" is that a text message came back (webSocketTransport).
  const verify = scenario.websocket ? (/** @type {string} */ body) => body === scenario.websocket?.text : bodyVerifier(scenario.expect.body)
  const expectedStatus = scenario.websocket ? ECHOED : scenario.expect.status
  /** @type {Lane[]} */
  const lanes = []
  // Drawn requests are sent in turn from the first, warm-up included, so that every count sends the same requests.
  let sent = 0
  return {
    async send (count) {
      await loadBodyModule(scenario.expect.body)
      while (lanes.length < Math.min(settings.concurrency, count)) lanes.push(transport.lane())
      const counts = { responses: 0, mismatches: 0, unexpectedStatus: 0, errors: 0 }
      let next = 0
      const worker = async (/** @type {Lane} */ lane) => {
        while (next < count) {
          next += 1
          try {
            const answer = await lane.exchange(nthRequest(scenario.request, sent++))
            counts.responses += 1
            if (answer.status !== expectedStatus) counts.unexpectedStatus += 1
            if (verify && !verify(answer.body)) counts.mismatches += 1
          } catch {
            counts.errors += 1
          }
        }
      }
      await Promise.all(lanes.slice(0, Math.min(settings.concurrency, count)).map(worker))
      return counts
    },
    close () {
      for (const lane of lanes) lane.close()
      transport.close()
    }
  }
}

/** @param {ClientSettings} settings */
function trusted (settings) {
  const tls = clientTls({ host: HOST, port: settings.port, timeoutMs: settings.timeoutMs, trust: settings.trust })
  if (!tls) {
    throw new DynoError('DYNO_ERR_TLS_CERTIFICATE', `${settings.scenario.name} is counted over TLS, and the count was given no ` +
    'certificate to trust')
  }
  return tls
}

/** @param {ClientSettings} settings @param {http.Agent} agent @returns {Transport} */
function http1Transport ({ port, timeoutMs }, agent) {
  return {
    lane: () => ({ exchange: (request) => sendProbe({ host: HOST, port, agent, timeoutMs }, request), close: () => {} }),
    close: () => agent.destroy()
  }
}

/** @param {ClientSettings} settings @param {string} authority @param {http2.SecureClientSessionOptions} options @returns {Transport} */
function http2Transport ({ timeoutMs }, authority, options) {
  return {
    lane () {
      /** @type {Promise<http2.ClientHttp2Session> | null} */
      let session = null
      const open = async () => {
        const opened = http2.connect(authority, options)
        opened.on('error', () => {})
        await connected(opened, timeoutMs)
        return opened
      }
      return {
        async exchange (request) {
          session ??= open()
          return sendOnStream(await session, request, timeoutMs)
        },
        close: () => { session?.then((opened) => opened.destroy(), () => {}) }
      }
    },
    close: () => {}
  }
}

/**
 * WebSocket: each lane one connection, upgraded once; an exchange is the scenario's text message and its echo, whose status is ECHOED
 * when a text message came back (a message has no status of its own) and whose body is what came back.
 * @param {ClientSettings} settings @returns {Transport}
 */
function webSocketTransport ({ port, scenario, timeoutMs }) {
  const exchange = /** @type {import('@dyno/scenarios').WebSocketExchange} */ (scenario.websocket)
  return {
    lane () {
      /** @type {Promise<import('../../../subjects/verify/websocket-client.js').WebSocketConnection> | null} */
      let socket = null
      const open = async () => {
        const opened = await openWebSocket({ host: HOST, port, path: exchange.path, headers: scenario.request.headers, timeoutMs })
        if (opened.status !== 101) {
          opened.destroy()
          throw new Error(`the WebSocket upgrade was answered ${opened.status}`)
        }
        return opened
      }
      return {
        async exchange () {
          socket ??= open()
          const opened = await socket
          opened.send('text', Buffer.from(exchange.text))
          const message = await opened.next(timeoutMs)
          const body = message.data.toString('utf8')
          return { status: message.kind === 'text' ? ECHOED : 0, body }
        },
        close: () => { socket?.then((opened) => opened.destroy(), () => {}) }
      }
    },
    close: () => {}
  }
}

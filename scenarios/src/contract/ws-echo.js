// @ts-check
import { WEBSOCKET_PATH } from '../work/websocket.js'
import { defineScenario } from './define-scenario.js'

/** 256 bytes, each its own index: every byte value once, so a message turned into text on the way (not valid UTF-8) cannot come back. */
const BINARY_MESSAGE = Buffer.from(Array.from({ length: 256 }, (_, index) => index))

/** How many numbered messages the burst sends at once. */
const BURST_MESSAGES = 20

export const wsEcho = defineScenario({
  name: 'ws-echo',
  summary: 'WebSocket echo at /ws on the HTTP/1.1 server: text and binary messages sent back as they came, in order, then a clean close.',
  protocol: 'ws',
  // Per message, an estimate from cpu time, as tls-json's (whose comment has the figures).
  countWeight: 0.4,
  // The upgrade. Verification checks the handshake (Sec-WebSocket-Accept), then the messages below; load sends messages.
  request: {
    method: 'GET',
    path: WEBSOCKET_PATH,
    headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13' }
  },
  expect: { status: 101, contentType: null, body: null },
  websocket: {
    path: WEBSOCKET_PATH,
    text: 'Hello, WebSocket!',
    binaryBase64: BINARY_MESSAGE.toString('base64'),
    burst: Array.from({ length: BURST_MESSAGES }, (_, index) => `message ${index + 1} of ${BURST_MESSAGES}`),
    closeCode: 1000,
    plainRequestStatus: { min: 400, max: 499 }
  }
})

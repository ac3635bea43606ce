// @ts-check
/**
 * What a handler returns, and its serialization: status line, Content-Type, Content-Length, Date,
 * and Connection when it differs from the version's default.
 * @typedef {{ status: number, type: string, body: string }} Reply
 */

const TEXT_TYPE = 'text/plain; charset=utf-8'
const JSON_TYPE = 'application/json'

/** @type {Record<number, string>} */
const STATUS_LINES = {}
for (const [status, reason] of Object.entries({
  200: 'OK',
  400: 'Bad Request',
  404: 'Not Found',
  411: 'Length Required',
  413: 'Content Too Large',
  417: 'Expectation Failed',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  505: 'HTTP Version Not Supported'
})) {
  STATUS_LINES[Number(status)] = `HTTP/1.1 ${status} ${reason}\r\n`
}

/** @param {number} status @param {string} body @returns {Reply} */
export const text = (status, body) => ({ status, type: TEXT_TYPE, body })

/** @param {number} status @param {unknown} value @returns {Reply} */
export const json = (status, value) => ({ status, type: JSON_TYPE, body: JSON.stringify(value) })

/** @param {number} status @returns {Reply} the status's reason phrase as a text body */
export const statusReply = (status) => text(status, STATUS_LINES[status].slice(13, -2))

export const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n'

// The Date header has a one-second resolution: format it once a second, as node:http does.
let date = new Date().toUTCString()
setInterval(() => { date = new Date().toUTCString() }, 1000).unref()

/**
 * @param {Reply} reply
 * @param {'close' | 'keep-alive' | null} connection the Connection header, null to send none
 * @param {boolean} withBody false for a HEAD request: the same head, no body
 * @returns {string} the whole response
 */
export function serialize (reply, connection, withBody) {
  let head = (STATUS_LINES[reply.status] ?? `HTTP/1.1 ${reply.status} \r\n`) +
    'Content-Type: ' + reply.type +
    '\r\nContent-Length: ' + Buffer.byteLength(reply.body) +
    '\r\nDate: ' + date +
    '\r\n'
  if (connection !== null) head += 'Connection: ' + connection + '\r\n'
  return withBody ? head + '\r\n' + reply.body : head + '\r\n'
}

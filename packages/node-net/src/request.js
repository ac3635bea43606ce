// @ts-check
/**
 * Parses the head of one HTTP/1.x request (request line and header fields, without the final
 * CRLF CRLF). Only the fields the server acts on are kept; every line is still checked for the
 * `name: value` shape. No regular expressions on the hot path.
 *
 * @typedef {object} Request
 * @property {string} method
 * @property {string} path the target's path, without the query string
 * @property {string} query the query string without `?` ('' when there is none)
 * @property {boolean} http10 the request is HTTP/1.0
 * @property {boolean} keepAlive whether the connection stays open after the response
 * @property {boolean} expectContinue the client waits for `100 Continue` before sending the body
 * @property {number} contentLength
 * @property {string} body the body decoded as UTF-8 ('' when there is none)
 */

/** Request bodies above this are refused with 413 (the same bound as fastify's default bodyLimit). */
export const MAX_BODY_BYTES = 1024 * 1024

const VERSION_PATTERN = /^HTTP\/\d\.\d$/

/** tchar of RFC 9110 §5.6.2, indexed by char code. */
const TOKEN_CHARS = new Uint8Array(128)
for (const char of "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") {
  TOKEN_CHARS[char.charCodeAt(0)] = 1
}

/** @param {string} text @param {number} start @param {number} end */
function isToken (text, start, end) {
  if (start >= end) return false
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index)
    if (code > 127 || TOKEN_CHARS[code] === 0) return false
  }
  return true
}

/** @param {string} value @returns {number} the value as a length, or -1 when it is not all digits */
function parseLength (value) {
  if (value.length === 0 || value.length > 15) return -1
  let length = 0
  for (let index = 0; index < value.length; index++) {
    const digit = value.charCodeAt(index) - 48
    if (digit < 0 || digit > 9) return -1
    length = length * 10 + digit
  }
  return length
}

/**
 * @param {string} head the request line and header lines, latin1-decoded, CRLF-separated
 * @returns {Request | number} the request, or the status code to refuse it with (and close)
 */
export function parseHead (head) {
  const lineEnd = head.indexOf('\r\n')
  const requestLineEnd = lineEnd === -1 ? head.length : lineEnd
  const firstSpace = head.indexOf(' ')
  const secondSpace = head.indexOf(' ', firstSpace + 1)
  if (firstSpace <= 0 || secondSpace === -1 || secondSpace >= requestLineEnd) return 400
  if (!isToken(head, 0, firstSpace)) return 400

  const version = head.slice(secondSpace + 1, requestLineEnd)
  const http10 = version === 'HTTP/1.0'
  if (!http10 && version !== 'HTTP/1.1') return VERSION_PATTERN.test(version) ? 505 : 400
  const method = head.slice(0, firstSpace)

  let target = head.slice(firstSpace + 1, secondSpace)
  if (target.charCodeAt(0) !== 47) { // not origin-form ('/...')
    const schemeEnd = target.indexOf('://')
    if (schemeEnd <= 0) return 400 // '*' (asterisk-form) and authority-form are not served
    const pathStart = target.indexOf('/', schemeEnd + 3)
    target = pathStart === -1 ? '/' : target.slice(pathStart)
  }
  const queryStart = target.indexOf('?')

  let keepAlive = !http10
  let contentLength = 0
  let sawLength = false
  let hosts = 0
  let expectContinue = false
  let start = lineEnd === -1 ? head.length : lineEnd + 2
  while (start < head.length) {
    let end = head.indexOf('\r\n', start)
    if (end === -1) end = head.length
    const colon = head.indexOf(':', start)
    if (colon === -1 || colon >= end || !isToken(head, start, colon)) return 400
    const nameLength = colon - start
    if (nameLength === 4 || nameLength === 6 || nameLength === 10 || nameLength === 14 || nameLength === 17) {
      const name = head.slice(start, colon).toLowerCase()
      if (name === 'host') {
        hosts++
      } else if (name === 'content-length') {
        const length = parseLength(head.slice(colon + 1, end).trim())
        if (length === -1 || (sawLength && length !== contentLength)) return 400
        contentLength = length
        sawLength = true
      } else if (name === 'connection') {
        const value = head.slice(colon + 1, end).toLowerCase()
        if (value.includes('close')) keepAlive = false
        else if (value.includes('keep-alive')) keepAlive = true
      } else if (name === 'transfer-encoding') {
        return 411 // chunked request bodies are not supported: a Content-Length is required
      } else if (name === 'expect') {
        if (head.slice(colon + 1, end).trim().toLowerCase() !== '100-continue') return 417
        expectContinue = !http10
      }
    }
    start = end + 2
  }
  if (hosts > 1 || (hosts === 0 && !http10)) return 400
  if (contentLength > MAX_BODY_BYTES) return 413

  return {
    method,
    path: queryStart === -1 ? target : target.slice(0, queryStart),
    query: queryStart === -1 ? '' : target.slice(queryStart + 1),
    http10,
    keepAlive,
    expectContinue,
    contentLength,
    body: ''
  }
}

// @ts-check
import { basename } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { BODY_CHECKS } from '@dyno/scenarios'
import { bodyModuleVerdict } from './body-module.js'
import { schemaCheck, schemaText } from './schema-check.js'

/**
 * @typedef {object} Check one thing verification looked at
 * @property {string} request e.g. `GET /json`
 * @property {string} check what was checked, e.g. `status`, `body`, `keep-alive`
 * @property {boolean} ok
 * @property {unknown} expected
 * @property {unknown} actual
 * @property {string} [probe] the probe's name, for checks of a probe
 */

/** Lines of a V8 stack trace (`    at fn (file.js:1:2)`), or a file location with line and column. */
const STACK_TRACE_PATTERN = /\n\s+at\s|\(?(file:\/\/|\/)[^\s)]+:\d+:\d+\)?/

/** How much of a body a failed check keeps. */
const BODY_EXCERPT_CHARS = 300

/** @param {string} text */
export function excerpt (text) {
  return text.length > BODY_EXCERPT_CHARS ? `${text.slice(0, BODY_EXCERPT_CHARS)}… (${text.length} chars)` : text
}

/** @param {string | string[] | undefined} header @returns {string | null} `type/subtype`, lower-cased */
export function mediaType (header) {
  const value = Array.isArray(header) ? header[0] : header
  if (!value) return null
  return value.split(';')[0].trim().toLowerCase()
}

/**
 * Does the body meet the expectation? Shared by verification and by the load generator's check.
 * @param {import('@dyno/scenarios').BodyExpectation} expected
 * @param {string} body
 */
export function bodyMatches (expected, body) {
  if (expected.text !== undefined) return body === expected.text
  if (expected.module !== undefined) return bodyModuleVerdict(expected.module, body) === null
  let parsed
  try {
    parsed = JSON.parse(body)
  } catch {
    return false
  }
  if (expected.check !== undefined) return BODY_CHECKS[expected.check](parsed)
  if (expected.schema !== undefined) return schemaCheck(expected.schema)(parsed)
  return isDeepStrictEqual(parsed, expected.json)
}

/**
 * A body judged by the service's own module: what it said, beside the body, where it rejects it.
 * @param {string} label @param {string} body @param {string} path
 * @returns {Check}
 */
function moduleCheck (label, body, path) {
  const reason = bodyModuleVerdict(path, body)
  const expected = `a body ${basename(path)} accepts`
  const actual = reason === null ? excerpt(body) : `${reason}: ${excerpt(body)}`
  return { request: label, check: `body (${basename(path)})`, ok: reason === null, expected, actual }
}

/**
 * @param {Record<string, string | string[] | undefined>} headers as Node gives them, names in lower case
 * @param {string} name in any case
 * @returns {string | null} its value (a repeated header's values joined by `, `); null: absent
 */
function headerValue (headers, name) {
  const key = name.toLowerCase()
  const value = Object.hasOwn(headers, key) ? headers[key] : undefined
  if (value === undefined) return null
  return Array.isArray(value) ? value.join(', ') : value
}

/**
 * Checks one response against its expectation.
 * @param {string} label e.g. `GET /json`
 * @param {Pick<import('./http-probe.js').ProbeResponse, 'status' | 'headers' | 'body'>} response
 * @param {import('@dyno/scenarios').Scenario['expect']} expect
 * @param {{ framing?: boolean }} [options] framing: check the HTTP/1.1 framing (Content-Length or chunked); HTTP/2 frames every body
 * @returns {Check[]}
 */
export function checkResponse (label, response, expect, { framing = true } = {}) {
  /** @type {Check[]} */
  const checks = [
    { request: label, check: 'status', ok: response.status === expect.status, expected: expect.status, actual: response.status }
  ]
  if (expect.contentType !== null) {
    const actual = mediaType(response.headers['content-type'])
    checks.push({
      request: label,
      check: 'content-type',
      ok: actual === expect.contentType,
      expected: expect.contentType,
      actual: response.headers['content-type'] ?? null
    })
  }
  for (const [name, expected] of Object.entries(expect.headers ?? {})) {
    const actual = headerValue(response.headers, name)
    checks.push({ request: label, check: `header ${name.toLowerCase()}`, ok: actual === expected, expected, actual })
  }
  if (expect.body?.module !== undefined) {
    checks.push(moduleCheck(label, response.body, expect.body.module))
  } else if (expect.body !== null) {
    const ok = bodyMatches(expect.body, response.body)
    const { text, json, check, schema } = expect.body
    const kind = text !== undefined
      ? 'body (exact)'
      : check !== undefined ? `body (${check})` : schema !== undefined ? 'body (JSON Schema)' : 'body (JSON deep-equal)'
    const expected = text ?? (check !== undefined ? `JSON that ${check} accepts` : schema !== undefined ? schemaText(schema) : json)
    const shownExpected = typeof expected === 'string' ? expected : JSON.stringify(expected)
    checks.push({ request: label, check: kind, ok, expected: ok ? expected : excerpt(shownExpected), actual: excerpt(response.body) })
  }
  if (expect.noStackTrace) {
    const leaked = STACK_TRACE_PATTERN.exec(response.body)
    checks.push({
      request: label,
      check: 'no stack trace in body',
      ok: !leaked,
      expected: 'no stack trace',
      actual: leaked ? excerpt(response.body) : 'none'
    })
  }
  if (!framing) return checks
  const framed =
    response.headers['content-length'] !== undefined || /\bchunked\b/i.test(String(response.headers['transfer-encoding'] ?? ''))
  checks.push({
    request: label,
    check: 'Content-Length or chunked',
    ok: framed,
    expected: 'Content-Length or Transfer-Encoding: chunked',
    actual: {
      'content-length': response.headers['content-length'] ?? null,
      'transfer-encoding': response.headers['transfer-encoding'] ?? null
    }
  })
  return checks
}

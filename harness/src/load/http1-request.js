// @ts-check
// The whole HTTP/1.1 request of a plan, as an engine that writes its own bytes sends it (the native engine, and wrk's script for
// drawn requests).
import { headerLines } from './request-headers.js'

/**
 * @param {import('./load-plan.js').LoadPlan} plan
 * @param {string} engine the engine's name, for a header it refuses
 * @param {import('@dyno/scenarios').DrawnRequest} [drawn] its method, path, headers and body (default: the plan's)
 * @returns {string}
 */
export function http1Request (plan, engine, drawn) {
  const url = new URL(plan.url)
  const { method, path, headers, body } = drawn ??
    { method: plan.method, path: `${url.pathname}${url.search}`, headers: plan.headers, body: plan.body }
  const lines = [`${method} ${path} HTTP/1.1`, `Host: ${url.host}`, ...headerLines(headers, engine, ['content-length', 'host'])]
  if (body !== null) lines.push(`Content-Length: ${Buffer.byteLength(body)}`)
  return `${lines.join('\r\n')}\r\n\r\n${body ?? ''}`
}

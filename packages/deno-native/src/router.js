// @ts-check
/// <reference path="./deno.d.ts" />
/**
 * Deno.serve has no router, so this is a small one on the web's URLPattern (built into Deno, and what the
 * router of Deno's standard library matches with): exact paths in a Map, `:param` paths as URLPatterns
 * tried in order. Just enough for the contract.
 * @typedef {(request: Request, params: Record<string, string>, url: URL) => Response | Promise<Response>} Handler
 */

export function createRouter () {
  /** @type {Map<string, Handler>} */
  const exact = new Map()
  /** @type {{ method: string, pattern: URLPattern, handler: Handler }[]} */
  const patterns = []

  return {
    /** @param {string} method @param {string} path @param {Handler} handler */
    add (method, path, handler) {
      if (path.includes(':')) patterns.push({ method, pattern: new URLPattern({ pathname: path }), handler })
      else exact.set(`${method} ${path}`, handler)
    },

    /** @param {string} method @param {string} pathname @returns {{ handler: Handler, params: Record<string, string> } | null} */
    find (method, pathname) {
      const handler = exact.get(`${method} ${pathname}`)
      if (handler) return { handler, params: {} }
      for (const route of patterns) {
        if (route.method !== method) continue
        const match = route.pattern.exec({ pathname })
        if (!match) continue
        /** @type {Record<string, string>} */
        const params = {}
        // URLPattern leaves the parameters percent-encoded, as they stand in the path.
        for (const [name, value] of Object.entries(match.pathname.groups)) params[name] = decodeURIComponent(value ?? '')
        return { handler: route.handler, params }
      }
      return null
    }
  }
}

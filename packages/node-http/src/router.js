// @ts-check
/**
 * A minimal router for the baseline: exact paths in a Map, `:param` patterns compiled once to
 * regular expressions and tried in order. Just enough for the contract, nothing more.
 * @typedef {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, params: Record<string, string>,
 *   queryString: string) => void | Promise<void>} Handler
 */

export function createRouter () {
  /** @type {Map<string, Handler>} */
  const exact = new Map()
  /** @type {{ method: string, pattern: RegExp, names: string[], handler: Handler }[]} */
  const patterns = []

  return {
    /** @param {string} method @param {string} path @param {Handler} handler */
    add (method, path, handler) {
      const names = []
      const source = path.replace(/:([A-Za-z_]\w*)/g, (_, name) => {
        names.push(name)
        return '([^/]+)'
      })
      if (names.length === 0) exact.set(`${method} ${path}`, handler)
      else patterns.push({ method, pattern: new RegExp(`^${source}$`), names, handler })
    },

    /** @param {string} method @param {string} path @returns {{ handler: Handler, params: Record<string, string> } | null} */
    find (method, path) {
      const handler = exact.get(`${method} ${path}`)
      if (handler) return { handler, params: {} }
      for (const route of patterns) {
        if (route.method !== method) continue
        const match = route.pattern.exec(path)
        if (!match) continue
        /** @type {Record<string, string>} */
        const params = {}
        route.names.forEach((name, index) => { params[name] = decodeURIComponent(match[index + 1]) })
        return { handler: route.handler, params }
      }
      return null
    }
  }
}

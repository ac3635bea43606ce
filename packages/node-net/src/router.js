// @ts-check
/**
 * A minimal router: static paths in one Map per method, `:param` patterns in a tree of path
 * segments (static children before the parameter child, with backtracking). No regular
 * expressions at request time; parameters are percent-decoded only when they contain a `%`.
 * @typedef {import('./request.js').Request} Request
 * @typedef {import('./reply.js').Reply} Reply
 * @typedef {(request: Request, params: Record<string, string>) => Reply | Promise<Reply>} Handler a Reply, or a Promise of one (answered in
 *   request order when it settles)
 * @typedef {{ handler: Handler, names: string[] }} Route
 * @typedef {{ statics: Map<string, Node>, param: Node | null, routes: Map<string, Route> }} Node
 * @typedef {{ handler: Handler, params: Record<string, string> } | null | 'bad-param'} Match
 */

/** @returns {Node} */
const newNode = () => ({ statics: new Map(), param: null, routes: new Map() })

/** @type {Record<string, string>} */
const NO_PARAMS = Object.freeze({})

/**
 * @param {Node} node
 * @param {string} method
 * @param {string} path
 * @param {number} start index of the first character of the current segment
 * @param {string[]} values parameter values collected so far
 * @returns {Route | null}
 */
function lookup (node, method, path, start, values) {
  const slash = path.indexOf('/', start)
  const segment = slash === -1 ? path.slice(start) : path.slice(start, slash)
  const staticChild = node.statics.get(segment)
  if (staticChild !== undefined) {
    const route = slash === -1 ? (staticChild.routes.get(method) ?? null) : lookup(staticChild, method, path, slash + 1, values)
    if (route !== null) return route
  }
  if (node.param !== null && segment.length > 0) {
    values.push(segment)
    const route = slash === -1 ? (node.param.routes.get(method) ?? null) : lookup(node.param, method, path, slash + 1, values)
    if (route !== null) return route
    values.pop()
  }
  return null
}

export function createRouter () {
  /** @type {Map<string, Map<string, Handler>>} */
  const exact = new Map()
  const root = newNode()

  return {
    /** @param {string} method @param {string} path @param {Handler} handler */
    add (method, path, handler) {
      if (!path.includes('/:')) {
        if (!exact.has(method)) exact.set(method, new Map())
        exact.get(method)?.set(path, handler)
        return
      }
      const names = []
      let node = root
      for (const segment of path.slice(1).split('/')) {
        if (segment.startsWith(':')) {
          names.push(segment.slice(1))
          node = node.param ??= newNode()
        } else {
          let child = node.statics.get(segment)
          if (!child) node.statics.set(segment, child = newNode())
          node = child
        }
      }
      node.routes.set(method, { handler, names })
    },

    /**
     * @param {string} method
     * @param {string} path the path without the query string
     * @returns {Match} null: no route; 'bad-param': a parameter is not valid percent-encoding
     */
    find (method, path) {
      const handler = exact.get(method)?.get(path)
      if (handler !== undefined) return { handler, params: NO_PARAMS }
      if (path.charCodeAt(0) !== 47) return null
      /** @type {string[]} */
      const values = []
      const route = lookup(root, method, path, 1, values)
      if (route === null) return null
      /** @type {Record<string, string>} */
      const params = {}
      for (let index = 0; index < values.length; index++) {
        const value = values[index]
        if (value.includes('%')) {
          try {
            params[route.names[index]] = decodeURIComponent(value)
          } catch {
            return 'bad-param'
          }
        } else {
          params[route.names[index]] = value
        }
      }
      return { handler: route.handler, params }
    }
  }
}

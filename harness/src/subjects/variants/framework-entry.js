// @ts-check
// An entry of `--frameworks`: a SUT by name (`express`), or a variant of its framework (`express@4.21.2`, `fastify@^4`,
// `koa@latest`, `fastify@path:../fastify`): the same SUT package, run on another version or on a local checkout of the framework.

/**
 * @typedef {{ kind: 'npm', text: string } | { kind: 'path', path: string }} VariantSpec npm: a version, range or dist-tag of the
 *   framework's package; path: a directory holding the framework's package (a clone at some branch)
 * @typedef {{ text: string, name: string, spec: VariantSpec | null }} FrameworkEntry text: as typed; name: the SUT's
 */

/** @param {string} text one entry of `--frameworks`, trimmed @returns {FrameworkEntry} */
export function parseFrameworkEntry (text) {
  const at = text.indexOf('@')
  if (at <= 0) return { text, name: text, spec: null }
  const name = text.slice(0, at)
  const rest = text.slice(at + 1)
  return { text, name, spec: rest.startsWith('path:') ? { kind: 'path', path: rest.slice('path:'.length) } : { kind: 'npm', text: rest } }
}

/**
 * What a variant's results are called: the SUT with the version it resolved to (`express@4.21.2`), or with the checkout's
 * directory name (`fastify@path:fastify`).
 * @param {string} name the SUT's @param {{ kind: 'npm' | 'path', version: string, dir?: string }} resolved
 */
export function variantLabel (name, resolved) {
  return resolved.kind === 'npm' ? `${name}@${resolved.version}` : `${name}@path:${(resolved.dir ?? '').split('/').filter(Boolean).pop()}`
}

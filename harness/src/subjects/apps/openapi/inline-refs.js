// @ts-check
// A schema of an OpenAPI document with every local `$ref` (`#/components/schemas/Pet`) put in place, so that it stands alone as a
// service's expectation. A reference that loops back into itself, or leads outside the document, is a schema that cannot stand alone.

/** How deep references may nest before the schema is taken for one that loops. */
const MAX_DEPTH = 32

/**
 * @param {unknown} schema @param {Record<string, unknown>} document the whole OpenAPI document
 * @returns {unknown} the schema with its references in place
 * @throws {Error} naming the reference that cannot be put in place
 */
export function inlineRefs (schema, document) {
  return inline(schema, document, [])
}

/** @param {unknown} node @param {Record<string, unknown>} document @param {string[]} trail the references being put in place */
function inline (node, document, trail) {
  if (Array.isArray(node)) return node.map((item) => inline(item, document, trail))
  if (!node || typeof node !== 'object') return node
  const ref = /** @type {Record<string, unknown>} */ (node).$ref
  if (typeof ref === 'string') {
    if (trail.includes(ref) || trail.length >= MAX_DEPTH) throw new Error(`its schema refers to itself through ${ref}`)
    return inline(resolvePointer(ref, document), document, [...trail, ref])
  }
  /** @type {Record<string, unknown>} */
  const copy = Object.create(null)
  for (const [key, value] of Object.entries(node)) copy[key] = inline(value, document, trail)
  // OpenAPI 3.0's `nullable` is JSON Schema's null among the types.
  if (copy.nullable === true && typeof copy.type === 'string') copy.type = [copy.type, 'null']
  delete copy.nullable
  return { ...copy }
}

/** @param {string} ref @param {Record<string, unknown>} document */
function resolvePointer (ref, document) {
  if (!ref.startsWith('#/')) throw new Error(`its schema refers outside the document (${ref})`)
  let node = /** @type {unknown} */ (document)
  for (const part of ref.slice(2).split('/').map((step) => step.replaceAll('~1', '/').replaceAll('~0', '~'))) {
    if (!node || typeof node !== 'object' || !Object.hasOwn(node, part)) throw new Error(`its reference ${ref} leads nowhere`)
    node = /** @type {Record<string, unknown>} */ (node)[part]
  }
  return node
}

// @ts-check
// A value a schema accepts, for a request an OpenAPI operation describes without an example: the schema's own example, default or
// first enum value where it has one, else the least a type allows (the minimum, a required property each, one item).

/** How deep an object may nest in a sample. */
const MAX_DEPTH = 8

/**
 * @param {any} schema inlined (inline-refs.js)
 * @param {number} [depth]
 * @returns {unknown}
 * @throws {Error} for a schema no sample can be made for, saying why
 */
export function sampleValue (schema, depth = 0) {
  if (!schema || typeof schema !== 'object') throw new Error('it has no schema')
  if (depth > MAX_DEPTH) throw new Error(`its schema nests deeper than ${MAX_DEPTH}`)
  if (schema.example !== undefined) return schema.example
  if (schema.default !== undefined) return schema.default
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0]
  if (schema.const !== undefined) return schema.const
  const chosen = schema.allOf ? Object.assign({}, ...schema.allOf) : schema.oneOf?.[0] ?? schema.anyOf?.[0]
  if (chosen) return sampleValue({ ...schema, allOf: undefined, oneOf: undefined, anyOf: undefined, ...chosen }, depth + 1)
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type ?? (schema.properties ? 'object' : undefined)
  switch (type) {
    case 'integer': return Math.ceil(schema.minimum ?? 1)
    case 'number': return schema.minimum ?? 1
    case 'boolean': return true
    case 'string': return sampleString(schema)
    case 'array': return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => sampleValue(schema.items, depth + 1))
    case 'object': return Object.fromEntries((schema.required ?? []).map((/** @type {string} */ name) =>
      [name, sampleValue(schema.properties?.[name] ?? { type: 'string' }, depth + 1)]))
    default: throw new Error(`its schema gives no type to make a value of (${JSON.stringify(schema).slice(0, 80)})`)
  }
}

/** @param {any} schema */
function sampleString (schema) {
  const byFormat = { date: '2026-01-31', 'date-time': '2026-01-31T12:00:00Z', email: 'someone@example.com', uuid: '00000000-0000-4000-8000-000000000001', uri: 'https://example.com/' }
  if (schema.pattern) throw new Error(`its string must match ${schema.pattern}, and dyno makes no value for a pattern`)
  const text = byFormat[/** @type {keyof typeof byFormat} */ (schema.format)] ?? 'sample'
  return text.padEnd(schema.minLength ?? 0, 'x').slice(0, schema.maxLength ?? text.length + (schema.minLength ?? 0))
}

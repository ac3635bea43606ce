// @ts-check
// A body a service's config describes by a JSON Schema: compiled once per schema, then each body checked against it. The formats of
// JSON Schema are checked (ajv-formats), and OpenAPI's number formats too; a format neither knows is not checked, and not warned of.
import { Ajv } from 'ajv'
import ajvFormats from 'ajv-formats'

/** OpenAPI's formats of numbers and strings beside JSON Schema's. */
const OPENAPI_FORMATS = {
  int32: { type: 'number', validate: (/** @type {number} */ value) => Number.isInteger(value) && Math.abs(value) <= 2 ** 31 },
  int64: { type: 'number', validate: (/** @type {number} */ value) => Number.isInteger(value) },
  float: { type: 'number', validate: () => true },
  double: { type: 'number', validate: () => true },
  byte: { type: 'string', validate: (/** @type {string} */ value) => /^[A-Za-z0-9+/]*={0,2}$/.test(value) },
  binary: { type: 'string', validate: () => true },
  password: { type: 'string', validate: () => true }
}

/** @type {WeakMap<object, import('ajv').ValidateFunction>} */
const compiled = new WeakMap()
let ajv = /** @type {Ajv | null} */ (null)

/** @returns {Ajv} */
function schemas () {
  if (ajv) return ajv
  ajv = new Ajv({ strict: false, logger: false })
  // ajv-formats is CommonJS: its plugin is both module.exports and .default; .default is what its types name.
  ajvFormats.default(ajv)
  for (const [name, format] of Object.entries(OPENAPI_FORMATS)) ajv.addFormat(name, /** @type {any} */ (format))
  return ajv
}

/** @param {object} schema @returns {(value: unknown) => boolean} */
export function schemaCheck (schema) {
  let check = compiled.get(schema)
  if (!check) {
    check = schemas().compile(schema)
    compiled.set(schema, check)
  }
  return /** @type {(value: unknown) => boolean} */ (check)
}

/** @param {object} schema @returns {string} what a failed check says was expected */
export const schemaText = (schema) => `JSON that this schema accepts: ${JSON.stringify(schema)}`

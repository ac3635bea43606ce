// @ts-check
// A body a service's config describes by a JSON Schema: compiled once per schema, then each body checked against it.
import { Ajv } from 'ajv'

/** @type {WeakMap<object, import('ajv').ValidateFunction>} */
const compiled = new WeakMap()
let ajv = /** @type {Ajv | null} */ (null)

/** @param {object} schema @returns {(value: unknown) => boolean} */
export function schemaCheck (schema) {
  let check = compiled.get(schema)
  if (!check) {
    ajv ??= new Ajv({ allErrors: false, strict: false })
    check = ajv.compile(schema)
    compiled.set(schema, check)
  }
  return /** @type {(value: unknown) => boolean} */ (check)
}

/** @param {object} schema @returns {string} what a failed check says was expected */
export const schemaText = (schema) => `JSON that this schema accepts: ${JSON.stringify(schema)}`

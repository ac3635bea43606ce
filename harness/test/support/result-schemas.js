// @ts-check
import { Ajv } from 'ajv'
import ajvFormats from 'ajv-formats'
import { readFileSync } from 'node:fs'

const load = (/** @type {string} */ name) => JSON.parse(readFileSync(new URL(`../../schema/${name}`, import.meta.url), 'utf8'))

const ajv = new Ajv({ allErrors: true, strict: true })
// ajv-formats is CommonJS: its plugin is both module.exports and .default; .default is what its types name.
ajvFormats.default(ajv)
ajv.addSchema(load('function-list.schema.json'))
ajv.addSchema(load('result.schema.json'))
ajv.addSchema(load('run-index.schema.json'))
ajv.addSchema(load('aggregates.schema.json'))
ajv.addSchema(load('compare.schema.json'))

/**
 * @param {'result' | 'run-index' | 'aggregates' | 'compare' | 'function-list'} kind
 * @param {unknown} document
 * @returns {string[]} the schema violations, empty when valid
 */
export function schemaErrors (kind, document) {
  const validate = ajv.getSchema(`https://dyno.dev/schema/${kind}.schema.json`)
  if (!validate) throw new Error(`no schema ${kind}`)
  return validate(document) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`)
}

// @ts-check
// What dyno reads back from a run directory (run.json, each result) was possibly written on another machine, by another
// version, or by hand: before any of it is used, a document of the current schema version is checked against the schema
// dyno writes it by (harness/schema), so that a wrong type, a missing field or a number out of range is refused naming the
// file and the field, never met later as a crash. Fields the schema does not know (written by another version of dyno) are
// dropped, not refused. Documents of an older schema version get the checks their readers make (compare/read-inputs.js).
import { Ajv } from 'ajv'
import ajvFormats from 'ajv-formats'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { SCHEMA_VERSION } from '../platform/defaults.js'
import { HARNESS_DIR } from '../platform/paths.js'

/** @typedef {'result' | 'run-index' | 'aggregates' | 'timeline-record' | 'function-list'} DocumentKind */

/** How many problems a message names. */
const NAMED_PROBLEMS = 3
/** @type {Ajv | null} every schema dyno writes by, compiled once (they refer to one another) */
let schemas = null

/** @param {DocumentKind} kind @returns {import('ajv').ValidateFunction} */
function validatorOf (kind) {
  if (!schemas) {
    schemas = new Ajv({ allErrors: true, strict: false, removeAdditional: true })
    // ajv-formats is CommonJS: its plugin is both module.exports and .default; .default is what its types name.
    ajvFormats.default(schemas)
    for (const name of ['function-list', 'result', 'run-index', 'aggregates', 'timeline-record']) {
      schemas.addSchema(JSON.parse(readFileSync(join(HARNESS_DIR, 'schema', `${name}.schema.json`), 'utf8')))
    }
  }
  const validate = schemas.getSchema(`https://dyno.dev/schema/${kind}.schema.json`)
  if (!validate) throw new Error(`no schema ${kind}`)
  return validate
}

/**
 * What is wrong with a document read back, in words naming each field; null when it is as dyno writes it (or of an older
 * schema version, which this check leaves to its readers). Fields the schema does not know are removed from it.
 * @param {DocumentKind} kind @param {unknown} document
 * @returns {string | null}
 */
export function shapeProblem (kind, document) {
  if (!document || typeof document !== 'object' || Array.isArray(document)) return 'it is not a JSON object'
  const version = /** @type {{ schemaVersion?: unknown }} */ (document).schemaVersion
  if (version !== SCHEMA_VERSION) {
    return Number.isInteger(version) && Number(version) >= 1 && Number(version) < SCHEMA_VERSION
      ? null
      : `it has schema version ${JSON.stringify(version) ?? '(none)'}; this dyno reads versions 1 to ${SCHEMA_VERSION}`
  }
  return schemaProblem(kind, document)
}

/**
 * What is wrong with a document against its kind's schema, whatever its version says (a kind that keeps its own version, as a
 * timeline dataset does, checks it first); null: nothing. Fields the schema does not know are removed from it.
 * @param {DocumentKind} kind @param {object} document
 * @returns {string | null}
 */
export function schemaProblem (kind, document) {
  const validate = validatorOf(kind)
  if (validate(document)) return null
  const problems = describeErrors(validate.errors ?? [])
  return (
    problems.slice(0, NAMED_PROBLEMS).join('; ') +
    (problems.length > NAMED_PROBLEMS ? `; and ${problems.length - NAMED_PROBLEMS} more` : '')
  )
}

/**
 * The schema's complaints in words, one per field: the types a field may have said together ("must be null or object"), and a
 * failed choice between branches (oneOf) said only by its branches' complaints, about the deepest fields.
 * @param {import('ajv').ErrorObject[]} errors @returns {string[]} such as "summary.requestsPerSec.mean must be number"
 */
function describeErrors (errors) {
  /** @type {Map<string, { types: string[], others: string[] }>} */
  const byField = new Map()
  for (const error of errors) {
    const missing = error.keyword === 'required' ? /** @type {{ missingProperty: string }} */ (error.params).missingProperty : null
    const field = fieldOf(error.instancePath, missing)
    const entry = byField.get(field) ?? { types: [], others: [] }
    byField.set(field, entry)
    if (missing) entry.others.push('is missing')
    else if (error.keyword === 'type') entry.types.push(String(/** @type {{ type: string }} */ (error.params).type))
    else if (!['oneOf', 'anyOf', 'if'].includes(error.keyword)) entry.others.push(error.message ?? 'is not as dyno writes it')
  }
  // A field of several allowed shapes whose fields were wrong: the complaint is about those fields, not that it is not another shape.
  const deeper = (/** @type {string} */ field) =>
    [...byField.keys()].some((other) => other.startsWith(`${field}.`) || other.startsWith(`${field}[`))
  return [...byField].filter(([field, { others }]) => others.length > 0 || !deeper(field)).flatMap(([field, { types, others }]) => [
    ...(types.length > 0 ? [`${field} must be ${[...new Set(types)].join(' or ')}`] : []),
    ...[...new Set(others)].map((words) => `${field} ${words}`)
  ]).concat(byField.size === 0 ? ['the document is not as dyno writes it'] : [])
}

/**
 * @param {string} instancePath a JSON pointer @param {string | null} child @returns {string} such as `summary.latencyMs` or `windows[2]`
 */
function fieldOf (instancePath, child) {
  const parts = instancePath.split('/').slice(1).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
  if (child) parts.push(child)
  return parts.map((part, at) => /^\d+$/.test(part) ? `[${part}]` : `${at === 0 ? '' : '.'}${part}`).join('') || 'the document'
}

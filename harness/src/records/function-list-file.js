// @ts-check
// A count's function list is most of its result (250 functions with their names and files, about 100 KB of JSON): it is kept gzipped
// in a file beside the result, about a tenth of that, and attached again where the result is read. The file is named after the
// result (or the timeline record) it belongs to, never by a name read from data; what it holds is checked against its schema.
import { randomBytes } from 'node:crypto'
import { renameSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { DynoError } from '../platform/errors.js'
import { readBoundedGzipJson } from '../platform/util/bounded-files.js'
import { schemaProblem } from './document-shape.js'
import { writeJsonAtomic } from './write-json-atomic.js'

/**
 * @typedef {object} ListedFunction a function of the list as function-list.schema.json has it (measures' CountedFunction)
 * @typedef {{ functions?: ListedFunction[] | null, listFile?: string, listProblem?: string }} StoredProfile
 */

export const FUNCTION_LIST_SUFFIX = '.functions.json.gz'
/** dyno writes 10–20 KB: far above that, a file is not one of its lists. */
export const MAX_LIST_BYTES = 4 * 1024 * 1024
const MAX_LIST_TEXT_BYTES = 16 * 1024 * 1024

/** @param {string} resultFile @returns {string} `express--json.functions.json.gz` for `…/express--json.json` */
export const functionListFileOf = (resultFile) => `${basename(resultFile, '.json')}${FUNCTION_LIST_SUFFIX}`

/**
 * Writes a list gzipped, through a temporary file and a rename as writeJsonAtomic does.
 * @param {string} path @param {ListedFunction[]} functions
 */
export function writeFunctionList (path, functions) {
  const temporary = `${path}.${randomBytes(4).toString('hex')}.tmp`
  try {
    writeFileSync(temporary, gzipSync(JSON.stringify({ listVersion: 1, functions }), { level: 9 }))
    renameSync(temporary, path)
  } catch (error) {
    throw new DynoError('DYNO_ERR_RESULTS_WRITE', `could not write ${path}: ${/** @type {Error} */ (error).message}`, { cause: error })
  }
}

/**
 * Writes a result at `path`, its count's function list (where it has one) in the file beside it.
 * @param {string} path @param {import('./result-record.js').ResultRecord} record
 */
export function writeResultFile (path, record) {
  const profile = /** @type {StoredProfile | undefined} */ (record.instructions?.functions)
  if (!record.instructions || !Array.isArray(profile?.functions)) {
    writeJsonAtomic(path, record)
    return
  }
  const listFile = functionListFileOf(path)
  writeFunctionList(join(dirname(path), listFile), profile.functions)
  const { functions, ...kept } = profile
  writeJsonAtomic(path, { ...record, instructions: { ...record.instructions, functions: { ...kept, listFile } } })
}

/**
 * Reads a function list; what is wrong with it in words instead.
 * @param {string} path @returns {{ functions: ListedFunction[], problem: null } | { functions: null, problem: string }}
 */
export function readFunctionList (path) {
  const { value, problem } = readBoundedGzipJson(path, { maxBytes: MAX_LIST_BYTES, maxTextBytes: MAX_LIST_TEXT_BYTES })
  if (problem !== null) return { functions: null, problem: `${path} ${problem}` }
  const shape = schemaProblem('function-list', /** @type {object} */ (value))
  if (shape) return { functions: null, problem: `${path} is not a function list as dyno writes it: ${shape}` }
  return { functions: /** @type {{ functions: ListedFunction[] }} */ (value).functions, problem: null }
}

/**
 * Puts a result's function list back in its count, read from the file beside `path`. A list that cannot be read leaves the count
 * without one and says why (`listProblem`): the count's other figures still stand.
 * @param {import('./result-record.js').ResultRecord} record read from `path` and checked against its schema
 * @param {string} path
 */
export function attachFunctionList (record, path) {
  const profile = /** @type {StoredProfile | undefined} */ (record.instructions?.functions)
  if (!profile || profile.listFile === undefined || Array.isArray(profile.functions)) return
  const expected = functionListFileOf(path)
  if (profile.listFile !== expected) {
    profile.functions = null
    profile.listProblem = `${path} names ${JSON.stringify(profile.listFile).slice(0, 80)} as its function list; allowed: ${expected}, ` +
      'the file named after it'
    return
  }
  const { functions, problem } = readFunctionList(join(dirname(path), expected))
  profile.functions = functions
  if (problem !== null) profile.listProblem = problem
}

// @ts-check
// A service's own judge of a body (`expect.body.module` in its config): a module of its repository whose default export is given
// each body to check. It is imported once per process before its first body, so that judging stays synchronous under load.
import { pathToFileURL } from 'node:url'
import { DynoError } from '../../platform/errors.js'

/** @typedef {(body: string) => unknown} BodyJudge true accepts the body; false, or a reason, rejects it */

/** @type {Map<string, BodyJudge>} each module's judge, by its real path */
const judges = new Map()

const CONTRACT = 'it must be a function that takes the body and returns true, or false or the reason it rejects it'

/**
 * Imports the module an expectation names, once per process; nothing when it names none.
 * @param {import('@dyno/scenarios').BodyExpectation | null | undefined} expected
 * @throws {DynoError} DYNO_ERR_APP_CONFIG when it does not load or its default export is not a function
 */
export async function loadBodyModule (expected) {
  const path = expected?.module
  if (path === undefined || judges.has(path)) return
  let exported
  try {
    exported = (await import(pathToFileURL(path).href)).default
  } catch (error) {
    throw new DynoError('DYNO_ERR_APP_CONFIG', `${path}: the body check does not load: ${/** @type {Error} */ (error).message}`)
  }
  if (typeof exported !== 'function') {
    const got = exported === undefined ? 'there is no default export' : `its default export is a ${typeof exported}`
    throw new DynoError('DYNO_ERR_APP_CONFIG', `${path}: ${got}; ${CONTRACT}`)
  }
  judges.set(path, /** @type {BodyJudge} */ (exported))
}

/**
 * The module's verdict on one body.
 * @param {string} path a module loadBodyModule has loaded
 * @param {string} body
 * @returns {string | null} null when it accepts the body, else why not
 */
export function bodyModuleVerdict (path, body) {
  const judge = judges.get(path)
  if (!judge) throw new Error(`${path} judged a body before it was loaded (loadBodyModule)`)
  let verdict
  try {
    verdict = judge(body)
  } catch (error) {
    return `the check threw: ${error instanceof Error ? error.message : String(error)}`
  }
  if (verdict === true) return null
  if (typeof verdict === 'string' && verdict !== '') return verdict
  if (verdict instanceof Promise) {
    verdict.catch(() => {})
    return 'the check returned a promise; it must answer at once, as it runs on every body under load'
  }
  return 'the check returned ' + (typeof verdict === 'string' ? 'an empty reason' : String(verdict))
}

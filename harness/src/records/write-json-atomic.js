// @ts-check
import { randomBytes } from 'node:crypto'
import { renameSync, writeFileSync } from 'node:fs'
import { DynoError } from '../platform/errors.js'

/**
 * Writes JSON to `path` through a temporary file in the same directory and a rename, so that a
 * reader (or a crash) never sees half a file.
 * @param {string} path
 * @param {unknown} value
 */
export function writeJsonAtomic (path, value) {
  const temporary = `${path}.${randomBytes(4).toString('hex')}.tmp`
  try {
    writeFileSync(temporary, JSON.stringify(value, null, 2) + '\n')
    renameSync(temporary, path)
  } catch (error) {
    throw new DynoError('DYNO_ERR_RESULTS_WRITE', `could not write ${path}: ${/** @type {Error} */ (error).message}`, { cause: error })
  }
}

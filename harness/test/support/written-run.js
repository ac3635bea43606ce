// @ts-check
// A run directory as dyno wrote it, byte for byte: run.json and each result it lists, parsed and nothing more. results/read-run.js
// checks what it reads against the schemas and drops fields they do not know, which a test judging what was written must not do.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { RUN_INDEX_FILE } from '../../src/records/run-layout.js'

/** @param {string} path @returns {any} */
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'))

/**
 * @param {string} runDir
 * @returns {{ index: any, records: any[] }} run.json, and the results it lists in its order
 */
export function writtenRun (runDir) {
  const index = writtenIndex(runDir)
  return { index, records: index.results.map((/** @type {{ file: string }} */ entry) => readJson(join(runDir, entry.file))) }
}

/**
 * @param {string} runDir
 * @returns {any} run.json alone, as written (a run under way lists only the results it has written)
 */
export const writtenIndex = (runDir) => readJson(join(runDir, RUN_INDEX_FILE))

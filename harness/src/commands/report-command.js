// @ts-check
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { DEFAULTS } from '../defaults.js'
import { DynoError } from '../errors.js'
import { REPO_ROOT } from '../paths.js'
import { markdownReport } from '../report/markdown-report.js'
import { latestRunDir, readRun } from '../report/read-run.js'

/**
 * Writes report.md into each run directory named (default: the newest under results/) and returns
 * the paths written.
 * @param {string[]} runDirs
 * @returns {string[]}
 */
export function writeReports (runDirs) {
  const dirs = runDirs.length > 0 ? runDirs.map((dir) => resolve(dir)) : [latestRunDir(resolve(REPO_ROOT, DEFAULTS.out))]
  return dirs.map((dir) => {
    const path = join(dir, 'report.md')
    try {
      writeFileSync(path, markdownReport(readRun(dir)))
    } catch (error) {
      if (error instanceof DynoError) throw error
      throw new DynoError('DYNO_ERR_RESULTS_WRITE', `could not write ${path}: ${/** @type {Error} */ (error).message}`, { cause: error })
    }
    return path
  })
}

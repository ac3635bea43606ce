// @ts-check
// report.md and report.html written into run directories, and the side-by-side pair where several are read together.
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { DEFAULTS } from '../../platform/defaults.js'
import { DynoError } from '../../platform/errors.js'
import { REPO_ROOT } from '../../platform/paths.js'
import { checkWritableDirectory } from '../../platform/util/checked-paths.js'
import { latestRunDir, readRun } from '../../records/read-run.js'
import { runLabels } from '../../records/run-labels.js'
import { htmlReport } from './html-report.js'
import { markdownReport, markdownSideBySide } from './markdown-report.js'

/** @param {string} path @param {string} text */
function writeReport (path, text) {
  try {
    writeFileSync(path, text)
  } catch (error) {
    throw new DynoError('DYNO_ERR_RESULTS_WRITE', `could not write ${path}: ${/** @type {Error} */ (error).message}`, { cause: error })
  }
  return path
}

/**
 * Writes report.md and report.html into each run directory named (default: the newest under
 * results/). Several directories also get a side-by-side pair, side-by-side.md and .html, written into
 * the last one. Returns the paths written.
 * @param {string[]} runDirs
 * @returns {string[]}
 */
export function writeReports (runDirs) {
  const empty = runDirs.find((dir) => dir.trim() === '')
  if (empty !== undefined) {
    throw new DynoError('DYNO_ERR_RUN_UNREADABLE', `\`${empty}\` names no run directory: give the path of one ` +
    '(or none, for the latest)')
  }
  const dirs = runDirs.length > 0 ? runDirs.map((dir) => resolve(dir)) : [latestRunDir(resolve(REPO_ROOT, DEFAULTS.out))]
  const runs = dirs.map((dir) => readRun(dir))
  for (const dir of dirs) checkWritableDirectory(dir, `run directory ${dir}`)
  const paths = runs.flatMap((run) => [
    writeReport(join(run.dir, 'report.md'), markdownReport(run)),
    writeReport(join(run.dir, 'report.html'), htmlReport([run]))
  ])
  if (runs.length > 1) {
    const last = runs[runs.length - 1].dir
    paths.push(writeReport(join(last, 'side-by-side.md'), markdownSideBySide(runs, runLabels(runs))))
    paths.push(writeReport(join(last, 'side-by-side.html'), htmlReport(runs)))
  }
  return paths
}

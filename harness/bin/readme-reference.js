#!/usr/bin/env node
// @ts-check
// Rewrites the README's reference table from a run directory (default: the newest under results/).
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { DEFAULTS } from '../src/platform/defaults.js'
import { REPO_ROOT } from '../src/platform/paths.js'
import { latestRunDir, readRun } from '../src/records/read-run.js'
import { referenceTable, replaceReferenceBlock } from '../src/measures/wall-clock/report/reference-table.js'

const [dirArgument, readmeArgument] = process.argv.slice(2)
const runDir = dirArgument ? resolve(dirArgument) : latestRunDir(resolve(REPO_ROOT, DEFAULTS.out))
const readmePath = readmeArgument ? resolve(readmeArgument) : join(REPO_ROOT, 'README.md')
try {
  const readme = readFileSync(readmePath, 'utf8')
  // Checked before the run is read: a README without its markers is the likelier mistake.
  replaceReferenceBlock(readme, '')
  writeFileSync(readmePath, replaceReferenceBlock(readme, referenceTable(readRun(runDir))))
  process.stdout.write(`${readmePath}: reference table from ${runDir}\n`)
} catch (error) {
  process.stderr.write(`${/** @type {Error} */ (error).message}\n`)
  process.exitCode = 2
}

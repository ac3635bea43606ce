// @ts-check
// Writes the site into its directory: the pages, their shared assets (ECharts among them: the site opens offline and from any
// static host), every record it shows as its own file with an index page of them, and a mark that the directory is a site dyno
// wrote, so that writing it again never replaces a directory of someone else's files. The site is written whole into a new
// directory beside `--out` and moved into its place only when complete: a failure leaves the site that was there as it was, and
// nothing is ever written through a symbolic link someone left inside `--out`.
import { randomBytes } from 'node:crypto'
import { lstatSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { DynoError } from '../../platform/errors.js'
import { makeDirectory } from '../../platform/util/checked-paths.js'
import { siteModel } from './site-model.js'
import { SITE_ASSETS, sitePages } from './site-pages.js'
import { stepExplanationPages } from './step-explanations.js'

const SITE_MARK = '.dyno-site'

/** @param {string} path */
function lstatOrNull (path) {
  try {
    return lstatSync(path)
  } catch {
    return null
  }
}

/**
 * @param {string} out absolute
 * @param {{ records: import('../timeline/timeline-dataset.js').TimelineRecord[], suiteHtml: string | null }} content suiteHtml: the
 *   latest suite run's report, as its own page
 * @returns {{ pages: string[], records: number }}
 * @throws {DynoError} DYNO_ERR_PATH: `out` is a symbolic link, a file, or holds files and is not a site dyno wrote
 */
export function writeSite (out, { records, suiteHtml }) {
  const existing = lstatOrNull(out)
  if (existing?.isSymbolicLink()) {
    throw new DynoError('DYNO_ERR_PATH', `\`--out\` ${out} is a symbolic link; allowed: a directory of its own`)
  }
  if (existing && !existing.isDirectory()) throw new DynoError('DYNO_ERR_PATH', `\`--out\` ${out} is a file; allowed: a directory`)
  if (existing && readdirSync(out).length > 0 && !lstatOrNull(join(out, SITE_MARK))?.isFile()) {
    throw new DynoError(
      'DYNO_ERR_PATH',
      `\`--out\` ${out} holds files and is not a site dyno wrote (no ${SITE_MARK}); allowed: a new or empty ` +
        'directory, or a site written before'
    )
  }
  // Worked out before anything is written: a record the model cannot draw leaves no half-written directory.
  const model = siteModel(records)
  const steps = [...model.frameworks.flatMap((framework) => framework.scenarios.flatMap((scenario) => scenario.steps)),
    ...model.nodeSteps.flatMap((line) => line.steps)]
  const explanations = stepExplanationPages(new Map(records.map((record) => [record.id, record])), steps)
  const explained = new Set(explanations.map((page) => page.file))
  const pages = sitePages(model, { suite: suiteHtml !== null, generatedAt: new Date().toISOString(), explained })
  makeDirectory(dirname(out))
  const staging = join(dirname(out), `.${basename(out)}.dyno-site-${randomBytes(4).toString('hex')}`)
  try {
    mkdirSync(staging)
    mkdirSync(join(staging, 'assets'))
    mkdirSync(join(staging, 'records'))
    mkdirSync(join(staging, 'explain'))
    writeFileSync(join(staging, SITE_MARK), 'written by dyno site\n')
    for (const { file, html } of [...pages, ...explanations]) writeFileSync(join(staging, file), html)
    if (suiteHtml !== null) writeFileSync(join(staging, 'suite.html'), suiteHtml)
    for (const [name, read] of Object.entries(SITE_ASSETS)) writeFileSync(join(staging, 'assets', name), read())
    // Record ids are 24 hex digits (checked when their directory was read): a file name that stays inside records/.
    for (const record of records) {
      writeFileSync(join(staging, 'records', `${record.id}.json`), JSON.stringify(withoutFunctionList(record), null, 2) + '\n')
    }
    writeFileSync(
      join(staging, 'records', 'index.html'),
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Records</title></head>' +
        `<body><h1>The ${records.length} records of this site</h1><ul>${records
          .map((record) => `<li><a href="${record.id}.json">${record.id}</a></li>`)
          .join('')}</ul></body></html>\n`
    )
    replaceWith(out, staging)
  } catch (error) {
    rmSync(staging, { recursive: true, force: true })
    if (error instanceof DynoError) throw error
    throw new DynoError('DYNO_ERR_RESULTS_WRITE', `could not write the site into ${out}: ${/** @type {Error} */ (error).message}`, {
      cause: error
    })
  }
  return { pages: [...pages.map((page) => page.file), ...(suiteHtml === null ? [] : ['suite.html'])], records: records.length }
}

/**
 * Puts the complete site where `out` was: the old directory (a site dyno wrote, or empty) is moved aside, then removed (its links
 * removed as links, never followed).
 * @param {string} out @param {string} staging
 */
function replaceWith (out, staging) {
  if (!lstatOrNull(out)) return renameSync(staging, out)
  const previous = `${staging}.previous`
  renameSync(out, previous)
  try {
    renameSync(staging, out)
  } catch (error) {
    renameSync(previous, out)
    throw error
  }
  rmSync(previous, { recursive: true, force: true })
}

/**
 * A record as its data directory keeps it: its function list is read for the steps' pages, and not published as JSON.
 * @param {import('../timeline/timeline-dataset.js').TimelineRecord} record
 */
function withoutFunctionList (record) {
  if (!record.functions) return record
  const { functions, listProblem, ...kept } = record.functions
  return { ...record, functions: kept }
}

// @ts-check
// Writes the site into its directory: the pages, their shared assets (ECharts among them: the site opens offline and from any
// static host), every record it shows as its own file with an index page of them, and a mark that the directory is a site dyno
// wrote, so that writing it again never replaces a directory of someone else's files.
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DynoError } from '../../platform/errors.js'
import { makeDirectory } from '../../platform/util/checked-paths.js'
import { siteModel } from './site-model.js'
import { SITE_ASSETS, sitePages } from './site-pages.js'

const SITE_MARK = '.dyno-site'

/**
 * @param {string} out absolute
 * @param {{ records: import('../timeline/timeline-dataset.js').TimelineRecord[], suiteHtml: string | null }} content suiteHtml: the
 *   latest suite run's report, as its own page
 * @returns {{ pages: string[], records: number }}
 * @throws {DynoError} DYNO_ERR_PATH: `out` holds files and is not a site dyno wrote
 */
export function writeSite (out, { records, suiteHtml }) {
  if (existsSync(out) && readdirSync(out).length > 0 && !existsSync(join(out, SITE_MARK))) {
    throw new DynoError('DYNO_ERR_PATH', `\`--out\` ${out} holds files and is not a site dyno wrote (no ${SITE_MARK}); allowed: a new or empty ` +
      'directory, or a site written before')
  }
  for (const written of ['assets', 'records']) rmSync(join(out, written), { recursive: true, force: true })
  makeDirectory(join(out, 'assets'))
  makeDirectory(join(out, 'records'))
  writeFileSync(join(out, SITE_MARK), 'written by dyno site\n')
  const model = siteModel(records)
  const pages = sitePages(model, { suite: suiteHtml !== null, generatedAt: new Date().toISOString() })
  for (const { file, html } of pages) writeFileSync(join(out, file), html)
  if (suiteHtml !== null) writeFileSync(join(out, 'suite.html'), suiteHtml)
  for (const [name, read] of Object.entries(SITE_ASSETS)) writeFileSync(join(out, 'assets', name), read())
  // Record ids are 24 hex digits (checked when their directory was read): a file name that stays inside records/.
  for (const record of records) writeFileSync(join(out, 'records', `${record.id}.json`), JSON.stringify(record, null, 2) + '\n')
  writeFileSync(join(out, 'records', 'index.html'), '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Records</title></head><body>' +
    `<h1>The ${records.length} records of this site</h1><ul>${records.map((record) => `<li><a href="${record.id}.json">${record.id}</a></li>`).join('')}` +
    '</ul></body></html>\n')
  return { pages: [...pages.map((page) => page.file), ...(suiteHtml === null ? [] : ['suite.html'])], records: records.length }
}

// @ts-check
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { DynoError } from '../../platform/errors.js'
import { REPO_ROOT } from '../../platform/paths.js'
import { htmlReport } from '../../reports/report/html-report.js'
import { readRun } from '../../records/read-run.js'
import { writeSite } from '../../history/site/write-site.js'
import { DATASET_FILE, openDataset } from '../../history/timeline/timeline-dataset.js'

/**
 * `dyno site DATA… --out DIR`: the static site of one or more timeline data directories (read together: the parts of a matrix, or
 * the data of several machines), with the latest suite run's report when `--suite-run` names one.
 * Exit code: 0; 2 for a data directory dyno cannot read, or an `--out` that is not a site dyno wrote.
 * @param {string[]} dataDirs as typed @param {{ out: string, suiteRun: string | null }} options @param {import('../cli/main.js').Io} io
 * @returns {Promise<number>}
 */
export async function siteCommand (dataDirs, options, io) {
  const records = new Map()
  for (const dataDir of dataDirs) {
    const dir = resolve(REPO_ROOT, dataDir)
    if (!existsSync(join(dir, DATASET_FILE))) {
      throw new DynoError('DYNO_ERR_DATASET', `${dir} is not a timeline's data directory (it holds no ${DATASET_FILE}); allowed: a directory ` +
        'made by `dyno timeline`; nothing was written')
    }
    for (const [id, record] of openDataset(dir)) records.set(id, record)
  }
  const suiteHtml = options.suiteRun ? htmlReport([readRun(resolve(REPO_ROOT, options.suiteRun))]) : null
  const out = resolve(REPO_ROOT, options.out)
  const written = writeSite(out, { records: [...records.values()], suiteHtml })
  io.stdout.write(`site: ${join(out, 'index.html')} (${written.pages.length} pages, ${written.records} records)\n`)
  return 0
}

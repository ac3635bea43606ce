// @ts-check
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { DynoError } from '../../platform/errors.js'
import { REPO_ROOT } from '../../platform/paths.js'
import { htmlReport } from '../../reports/report/html-report.js'
import { readRun } from '../../records/read-run.js'
import { writeSite } from '../../history/site/write-site.js'
import { DATASET_FILE, openDataset, recordFunctionList } from '../../history/timeline/timeline-dataset.js'
import { inputDirectory, outputDirectory } from '../../platform/options/option-parsers.js'

/**
 * `dyno site DATA… --out DIR`: the static site of one or more timeline data directories (read together: the parts of a matrix, or
 * the data of several machines), with the latest suite run's report when `--suite-run` names one.
 * Exit code: 0; 2 for a data directory dyno cannot read, or an `--out` that is not a site dyno wrote.
 * @param {string[]} dataDirs as typed @param {{ out: string, suiteRun: string | null }} options @param {import('../cli/io.js').Io} io
 * @returns {Promise<number>}
 */
export async function siteCommand (dataDirs, options, io) {
  const records = new Map()
  for (const dataDir of dataDirs) {
    const dir = resolve(REPO_ROOT, dataDir)
    if (!existsSync(join(dir, DATASET_FILE))) {
      throw new DynoError(
        'DYNO_ERR_DATASET',
        `${dir} is not a timeline's data directory (it holds no ${DATASET_FILE}); allowed: a directory ` +
          'made by `dyno timeline`; nothing was written'
      )
    }
    for (const [id, record] of openDataset(dir)) records.set(id, withFunctionList(dir, record))
  }
  const suiteHtml = options.suiteRun ? htmlReport([readRun(resolve(REPO_ROOT, options.suiteRun))]) : null
  const out = resolve(REPO_ROOT, options.out)
  const written = writeSite(out, { records: [...records.values()], suiteHtml })
  io.stdout.write(`site: ${join(out, 'index.html')} (${written.pages.length} pages, ${written.records} records)\n`)
  return 0
}

/**
 * A record with its function list read, for its steps' explanations; a list that cannot be read leaves them unexplained, said why.
 * @param {string} dir @param {import('../../history/timeline/timeline-dataset.js').TimelineRecord} record
 */
function withFunctionList (dir, record) {
  if (!record.functions) return record
  const { functions, problem } = recordFunctionList(dir, record)
  return { ...record, functions: { ...record.functions, functions, ...(problem === null ? {} : { listProblem: problem }) } }
}

/** @type {import('../cli/command.js').Command} */
export const SITE_COMMAND = {
  name: 'site',
  args: ['<dataDir>', '[...dataDirs]'],
  summary: 'Write a static site of timeline data directories (read together) that opens offline: per framework, each measure by release ' +
    'with a line per runtime and its steps marked and listed; per runtime, every framework by publish date; the steps along Node ' +
    'releases; every record linked; with --suite-run, that run\'s report',
  options: [
    {
      field: 'out',
      flag: '--out <dir>',
      description: 'The site\'s directory: new, empty, or a site dyno wrote before (written again)',
      parse: outputDirectory,
      default: 'site'
    },
    {
      field: 'suiteRun',
      flag: '--suite-run <dir>',
      description: 'A wall-clock run directory whose report becomes the site\'s page of the latest suite run',
      parse: inputDirectory,
      default: null,
      defaultText: 'none'
    }
  ],
  run: ({ positionals, options }, io) => siteCommand(positionals, options.values, io)
}

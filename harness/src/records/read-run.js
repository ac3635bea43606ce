// @ts-check
import { existsSync, readdirSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { DynoError } from '../platform/errors.js'
import { shapeProblem } from './document-shape.js'
import { aggregateRuns } from './aggregate-runs.js'
import { attachFunctionList } from './function-list-file.js'
import { RANK_FIGURES } from '../judging/rank-figure.js'
import { readBoundedJson } from '../platform/util/bounded-files.js'
import { inputKind, MAX_INPUT_BYTES } from '../platform/util/checked-paths.js'

/**
 * @typedef {object} RunData a run directory as written by `dyno run`
 * @property {string} dir
 * @property {any} index run.json
 * @property {import('./result-record.js').ResultRecord[]} records in run order
 * @property {import('./aggregate-runs.js').Aggregate[]} aggregates
 */

/** @param {string} path @param {string} what @returns {any} */
function readJson (path, what) {
  const kind = inputKind(path, `${what} ${path}`)
  if (kind !== 'file') {
    throw new DynoError(
      'DYNO_ERR_RUN_UNREADABLE',
      `${path}: cannot read ${what}: it is ${kind === 'directory' ? 'a directory' : 'missing'}`
    )
  }
  // Bounded in size and in depth: a document nested 200,000 deep parses, and then every reader that recurses into it overflows.
  const { value, problem } = readBoundedJson(path, { maxBytes: MAX_INPUT_BYTES, followLinks: true })
  if (problem !== null) throw new DynoError('DYNO_ERR_RUN_UNREADABLE', `${path}: cannot read ${what}: it ${problem}`)
  return value
}

/**
 * A file name taken from a run's own data: a plain name inside the run directory, never a path that leaves it.
 * @param {unknown} name @param {string} field where it was read, for the message
 * @returns {string}
 */
function plainName (name, field) {
  if (
    typeof name !== 'string' ||
    name === '' ||
    name === '.' ||
    name === '..' ||
    basename(name) !== name ||
    name.includes('\\') ||
    name.includes('\0')
  ) {
    throw new DynoError(
      'DYNO_ERR_RUN_UNREADABLE',
      `${field} is ${shortJson(name)}; allowed: the plain name of a file inside the run directory ` +
        '(such as `express--json.json`), never a path'
    )
  }
  return name
}

/**
 * The fields every report and comparison reads first, checked so that a result made by hand names what it lacks.
 * @param {any} record @param {string} path
 * @returns {import('./result-record.js').ResultRecord}
 */
function checkedRecord (record, path) {
  const required = /** @type {const} */ ([
    ['sut.name', record?.sut?.name],
    ['scenario.name', record?.scenario?.name],
    ['status', record?.status]
  ])
  const lacking = !record || typeof record !== 'object' ? 'an object' : required.find(([, value]) => typeof value !== 'string')?.[0] ?? null
  if (lacking) throw new DynoError('DYNO_ERR_RUN_UNREADABLE', `${path}: not a dyno result: it lacks ${lacking}`)
  record.sut.label ??= record.sut.name
  return record
}

/**
 * A document of the run checked against the schema dyno writes it by, before anything reads it.
 * @param {import('./document-shape.js').DocumentKind} kind @param {unknown} document @param {string} path @param {string} what
 */
function checkedShape (kind, document, path, what) {
  const problem = shapeProblem(kind, document)
  if (problem) throw new DynoError('DYNO_ERR_RUN_UNREADABLE', `${path}: not ${what} as dyno writes it: ${problem}`)
  return document
}

/** @param {unknown} value @returns {string} the value as JSON, cut to 80 characters */
const shortJson = (value) => {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 80 ? `${text.slice(0, 79)}…` : text
}

/**
 * Reads a run directory: its index, every result it lists, and its aggregates (computed again from the results when the
 * file was written before aggregates had rank groups, so that every report reads one shape).
 * @param {string} dir
 * @returns {RunData}
 */
export function readRun (dir) {
  const indexPath = join(dir, 'run.json')
  const kind = inputKind(dir, dir)
  if (kind !== 'directory') {
    throw new DynoError('DYNO_ERR_RUN_UNREADABLE', `${dir} ${kind ? 'is a file' : 'does not exist'}: name a dyno run directory`)
  }
  if (!existsSync(indexPath)) throw new DynoError('DYNO_ERR_RUN_UNREADABLE', `${dir} is not a dyno run directory: it has no run.json`)
  const index = readJson(indexPath, 'the run index')
  if (!index || typeof index !== 'object' || !Array.isArray(index.results)) {
    throw new DynoError(
      'DYNO_ERR_RUN_UNREADABLE',
      `${indexPath}: results must be a list of the run's result files, got ${shortJson(index?.results)}`
    )
  }
  const names = index.results.map((/** @type {{ file: unknown }} */ entry, /** @type {number} */ at) =>
    plainName(entry?.file, `${indexPath}: results[${at}].file`))
  checkedShape('run-index', index, indexPath, 'a run index')
  const records = names.map((/** @type {string} */ name) => {
    const path = join(dir, name)
    const record = checkedRecord(checkedShape('result', readJson(path, 'a result'), path, 'a result'), path)
    attachFunctionList(record, path)
    return record
  })
  const aggregatesPath = index.aggregatesFile ? join(dir, plainName(index.aggregatesFile, `${indexPath}: aggregatesFile`)) : null
  /** @type {import('./aggregate-runs.js').Aggregate[]} */
  const written = aggregatesPath
    ? (/** @type {any} */ (checkedShape('aggregates', readJson(aggregatesPath, 'the aggregates'), aggregatesPath, 'the aggregates'))
        .aggregates ?? [])
    : []
  const aggregates = written.some((aggregate) => aggregate.requestsPerSec.center === undefined)
    ? aggregateRuns(records, { seed: index.seed, rankBy: rankByOf(index)?.figure })
    : written
  return { dir, index, records, aggregates }
}

/**
 * The figure a run's rank groups were made on, as its run.json records it.
 * @param {Record<string, any>} index
 * @returns {import('../judging/rank-figure.js').RankChoice | null} null: not recorded (a run of an earlier version, ranked on req/s)
 */
export function rankByOf (index) {
  const recorded = index?.rankBy
  return recorded && RANK_FIGURES.includes(recorded.figure) ? { figure: recorded.figure, by: recorded.by } : null
}

/**
 * The newest run directory under `out` (run ids sort by time).
 * @param {string} out
 * @returns {string}
 */
export function latestRunDir (out) {
  const runs = existsSync(out)
    ? readdirSync(out, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(out, entry.name, 'run.json')))
      .map((entry) => entry.name)
      .sort()
    : []
  if (runs.length === 0) {
    throw new DynoError(
      'DYNO_ERR_RUN_UNREADABLE',
      `no run directory under ${resolve(out)}: run \`pnpm bench\` first, or name a run directory`
    )
  }
  return join(out, runs[runs.length - 1])
}

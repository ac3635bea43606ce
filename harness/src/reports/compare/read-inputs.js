// @ts-check
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { SCHEMA_VERSION } from '../../platform/defaults.js'
import { DynoError, isDynoError } from '../../platform/errors.js'
import { measureOf } from '../../measures/index.js'
import { shapeProblem } from '../../records/document-shape.js'
import { attachFunctionList } from '../../records/function-list-file.js'
import { readRun } from '../../records/read-run.js'
import { inputKind } from '../../platform/util/checked-paths.js'

/**
 * @typedef {import('../../records/result-record.js').ResultRecord} ResultRecord
 * @typedef {{ record: ResultRecord, file: string }} SourcedRecord a result with the file it came from
 * @typedef {object} Side the results of one side of a comparison, merged from every path given
 * @property {'baseline' | 'candidate'} name
 * @property {string[]} paths as given, resolved
 * @property {string[]} runIds
 * @property {{ commit: string | null, dirty: boolean }[]} commits the distinct git states the runs were made at
 * @property {number} schemaVersion
 * @property {number} seed of the first run (for the per-side bootstrap intervals)
 * @property {import('../../measures/measure.js').Measure} measure what every result of the side measured
 * @property {SourcedRecord[]} records
 */

const RUN_INDEX = 'run.json'
const STATUSES = ['ok', 'invalid', 'failed', 'skipped']

/** @param {'baseline' | 'candidate'} side @param {string} message */
const inputError = (side, message) => new DynoError('DYNO_ERR_COMPARE_INPUT', `${side}: ${message}`)

/**
 * Reads one side: each path is a run directory (with run.json), a run.json, a single result file,
 * or a directory of run directories (e.g. one run per interleaved pair), all merged.
 * @param {'baseline' | 'candidate'} side
 * @param {string[]} paths
 * @returns {Side}
 */
export function readSide (side, paths) {
  if (paths.length === 0) throw inputError(side, 'no run directory or result file given')
  /**
   * @type {{ runId: string, schemaVersion: unknown, where: string, seed: unknown,
   *   git: { commit?: string | null, dirty?: boolean } | undefined }[]}
   */
  const runs = []
  /** @type {SourcedRecord[]} */
  const records = []
  for (const given of paths) {
    const path = resolve(given)
    const kind = inputKind(path, `${side}: ${path}`)
    if (!kind) throw inputError(side, `${path} does not exist`)
    if (kind === 'directory') {
      const runDirs = existsSync(join(path, RUN_INDEX))
        ? [path]
        : readdirSync(path, { withFileTypes: true })
          .filter((entry) => entry.isDirectory() && existsSync(join(path, entry.name, RUN_INDEX)))
          .map((entry) => join(path, entry.name)).sort()
      if (runDirs.length === 0) {
        throw inputError(side, `${path} is not a dyno run directory (it has no ${RUN_INDEX}) and holds no run directories`)
      }
      for (const dir of runDirs) readRunDir(side, dir, runs, records)
      continue
    }
    const document = readJsonFile(side, path)
    if (
      basename(path) === RUN_INDEX ||
      (document && typeof document === 'object' && Array.isArray(document.results) && 'planned' in document)
    ) {
      readRunDir(side, dirname(path), runs, records)
    } else {
      const record = checkRecord(side, path, document)
      attachFunctionList(record, path)
      records.push({ record, file: path })
      runs.push({ runId: document.runId, schemaVersion: document.schemaVersion, where: path, seed: undefined, git: document.env?.git })
    }
  }
  if (records.length === 0) throw inputError(side, `${paths.map((path) => resolve(path)).join(', ')} holds no results`)
  const schemaVersion = checkSchemaVersions(side, [
    ...runs.map((run) => ({ version: run.schemaVersion, where: run.where })),
    ...records.map(({ record, file }) => ({ version: record.schemaVersion, where: file }))
  ])
  const commits = new Map(runs.map((run) => [
    `${run.git?.commit ?? null}/${Boolean(run.git?.dirty)}`,
    { commit: run.git?.commit ?? null, dirty: Boolean(run.git?.dirty) }
  ]))
  const firstSeed = runs.find((run) => Number.isInteger(run.seed))?.seed
  const measures = [...new Set(records.map(({ record }) => measureOf(record)))]
  if (measures.length > 1) {
    const example = (/** @type {import('../../measures/measure.js').Measure} */ measure) =>
      records.find(({ record }) => measureOf(record) === measure)?.file
    throw inputError(side, `its results mix ${measures.map((measure) => `${measure.name} results (${example(measure)})`).join(' and ')}: ` +
      'give each side results of one measure')
  }
  return {
    name: side,
    paths: paths.map((path) => resolve(path)),
    runIds: [...new Set(runs.map((run) => run.runId))],
    commits: [...commits.values()],
    schemaVersion,
    seed: typeof firstSeed === 'number' ? firstSeed : 1,
    // A side with no results at all compares as the default measure's.
    measure: measures[0] ?? measureOf({}),
    records
  }
}

/**
 * Both sides of a comparison; they must share one schema version.
 * @param {string[]} baselinePaths
 * @param {string[]} candidatePaths
 * @returns {{ baseline: Side, candidate: Side }}
 */
export function readCompareInputs (baselinePaths, candidatePaths) {
  // What each path is, for both sides, before either side's content is read.
  for (const [side, paths] of /** @type {const} */ ([['baseline', baselinePaths], ['candidate', candidatePaths]])) {
    for (const given of paths) {
      if (given === '') throw inputError(side, '`` is an empty path: give a run directory or a result file')
      if (!inputKind(resolve(given), `${side}: ${resolve(given)}`)) throw inputError(side, `${resolve(given)} does not exist`)
    }
  }
  const baseline = readSide('baseline', baselinePaths)
  const candidate = readSide('candidate', candidatePaths)
  if (baseline.schemaVersion !== candidate.schemaVersion) {
    throw new DynoError(
      'DYNO_ERR_COMPARE_SCHEMA',
      `the baseline (${baseline.paths.join(', ')}) has result schema version ${baseline.schemaVersion}, ` +
        `the candidate (${candidate.paths.join(', ')}) has ${candidate.schemaVersion}: results of different schema versions are ` +
          'not compared'
    )
  }
  if (baseline.measure.name !== candidate.measure.name) {
    throw new DynoError(
      'DYNO_ERR_COMPARE_INPUT',
      `the baseline (${baseline.paths.join(', ')}) holds ${baseline.measure.name} results, the candidate ` +
        `(${candidate.paths.join(', ')}) ${candidate.measure.name} results: both sides must be measured the same way (--measure)`
    )
  }
  baseline.measure.comparison.checkSides([baseline, candidate])
  return { baseline, candidate }
}

/**
 * @param {'baseline' | 'candidate'} side
 * @param {string} dir
 * @param {{ runId: string, schemaVersion: unknown, where: string, seed: unknown, git: any }[]} runs
 * @param {SourcedRecord[]} records
 */
function readRunDir (side, dir, runs, records) {
  let run
  try {
    run = readRun(dir)
  } catch (error) {
    if (isDynoError(error)) throw inputError(side, error.message)
    throw inputError(side, `${dir}: cannot read the run: ${/** @type {Error} */ (error).message}`)
  }
  runs.push({
    runId: run.index.runId,
    schemaVersion: run.index.schemaVersion,
    where: join(dir, RUN_INDEX),
    seed: run.index.seed,
    git: run.index.env?.git
  })
  run.records.forEach((record, position) => {
    const file = join(dir, run.index.results[position].file)
    records.push({ record: checkRecord(side, file, record), file })
  })
}

/**
 * @param {'baseline' | 'candidate'} side
 * @param {string} path
 */
function readJsonFile (side, path) {
  let text
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw inputError(side, `${path}: cannot read it: ${/** @type {Error} */ (error).message}`)
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw inputError(side, `${path} is not valid JSON (${/** @type {Error} */ (error).message})`)
  }
}

/**
 * The fields a comparison reads, checked once: a file that lacks one is named with the field.
 * @param {'baseline' | 'candidate'} side
 * @param {string} file
 * @param {any} record
 * @returns {ResultRecord}
 */
function checkRecord (side, file, record) {
  /** @param {string} field @param {string} expected */
  const bad = (field, expected) => inputError(side, `${file} is not a dyno result file: \`${field}\` must be ${expected}`)
  if (!record || typeof record !== 'object' || Array.isArray(record)) {
    throw inputError(side, `${file} is neither a run index (${RUN_INDEX}) nor a dyno result file`)
  }
  if (!Number.isInteger(record.schemaVersion)) throw bad('schemaVersion', 'a whole number')
  if (typeof record.sut?.name !== 'string') throw bad('sut.name', 'a string')
  if (typeof record.scenario?.name !== 'string') throw bad('scenario.name', 'a string')
  if (!Number.isInteger(record.load?.connections)) throw bad('load.connections', 'a whole number')
  if (!STATUSES.includes(record.status)) throw bad('status', `one of ${STATUSES.join(', ')}`)
  const lacking = record.status === 'ok' ? measureOf(record).comparison.recordProblem(record) : null
  if (lacking) throw bad(lacking.field, lacking.expected)
  // The rest of it, as the schema has it (a result read from a run directory was checked so already).
  const problem = shapeProblem('result', record)
  if (problem) throw inputError(side, `${file} is not a dyno result file: ${problem}`)
  return record
}

/**
 * @param {'baseline' | 'candidate'} side
 * @param {{ version: unknown, where: string }[]} found
 * @returns {number}
 */
function checkSchemaVersions (side, found) {
  const versions = [...new Set(found.map((entry) => entry.version))]
  if (versions.length > 1) {
    const examples = versions.map((version) => `${version} (${found.find((entry) => entry.version === version)?.where})`)
    throw new DynoError('DYNO_ERR_COMPARE_SCHEMA', `${side}: its files mix result schema versions ${examples.join(' and ')}`)
  }
  const [version] = versions
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1 || version > SCHEMA_VERSION) {
    throw new DynoError('DYNO_ERR_COMPARE_SCHEMA', `${side}: ${found[0].where} has result schema version ${JSON.stringify(version)}; ` +
      `this dyno reads versions 1 to ${SCHEMA_VERSION}`)
  }
  return version
}

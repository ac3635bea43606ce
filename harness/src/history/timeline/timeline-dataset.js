// @ts-check
// A timeline's data directory: records that accumulate, one file per record, never rewritten. A record is one count of one
// release of a framework on one runtime and scenario, made with one set of counting settings by one version of dyno's counting
// code; its file is named by the hash of exactly that key (and whether it measured or failed), so a later run adds only what is
// new, two records of one key made with other settings are both kept, and directories made by the parts of a matrix are merged by
// copying their files together. The layout is docs/timeline.md; a record's schema is harness/schema/timeline-record.schema.json.
import { createHash } from 'node:crypto'
import { existsSync, lstatSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import semver from 'semver'
import { DynoError } from '../../platform/errors.js'
import { schemaProblem } from '../../records/document-shape.js'
import { writeJsonAtomic } from '../../records/write-json-atomic.js'
import { readBoundedJson } from '../../platform/util/bounded-files.js'
import { readFunctionList, writeFunctionList } from '../../records/function-list-file.js'
import { checkWritableDirectory, inputKind, makeDirectory } from '../../platform/util/checked-paths.js'

export const DATASET_FILE = 'dataset.json'
export const RECORDS_DIR = 'records'
/** Each record's function list, gzipped, named by the record's id: beside records/, which a dyno from before reads alone. */
export const FUNCTIONS_DIR = 'functions'
/** The layout of the directory and of its records; a directory of another layout is refused, never rewritten. */
export const DATASET_LAYOUT = Object.freeze({ layout: 'dyno-timeline', layoutVersion: 1 })
export const RECORD_FILE = /^[0-9a-f]{24}\.json$/
/** A data directory is read back from anywhere (a CI artifact): its files are bounded far above what dyno writes (a record is 2 KB). */
const MAX_LAYOUT_BYTES = 64 * 1024
export const MAX_RECORD_BYTES = 1024 * 1024

/**
 * @typedef {import('../../measures/instructions/counts/code-layers.js').LayerName} LayerName
 * @typedef {import('../../measures/instructions/counts/function-profile.js').CountedFunction} CountedFunction
 *
 * @typedef {object} CountingSettings what a count was made with: records of other settings are never drawn on one line
 * @property {number} warmupRequests uncounted before the first window
 * @property {string} [warmupRule] count-settle.js's WARMUP_RULE; absent: the fixed rule of counts from before
 * @property {number} [warmupBoundRequests] with warmupRule: the most requests answered before the counted windows
 * @property {number} windowRequests
 * @property {number} windows
 * @property {number} concurrency
 * @property {import('../../measures/instructions/counts/count-instructions.js').CountSettings} runtimeSettings
 * @property {string} countingCode the hash of dyno's counting code (count-cache.js): its version, as far as a count can tell
 * @property {string} id the hash of all of the above: the line a record belongs on
 *
 * @typedef {object} TimelineRecord
 * @property {1} recordVersion
 * @property {string} id the file's name without `.json`: the hash of key and status
 * @property {{ framework: string, release: string, sut: string, runtime: string, runtimeVersion: string | null, scenario: string,
 *   counting: CountingSettings }} key
 * @property {string | null} publishedAt when the registry says the release was published
 * @property {'ok' | 'failed' | 'invalid' | 'skipped'} status
 * @property {string | null} reason why it was not counted
 * @property {string | null} errorCode
 * @property {{ instructionsPerRequest: number, programInstructionsPerRequest: number | null, programPerWindow: (number | null)[],
 *   syscallsPerRequest: { writes: number, reads: number, polling: number, other: number } | null, allocatedBytesPerRequest: number | null,
 *   collectorInstructionsPerRequest: number | null,
 *   warmup?: { usedRequests: number, settled: boolean, reason?: string, probeWindows: number[] } } | null} measures
 *   null: not counted; warmup: how the warm-up of a count of the settling rule ended
 * @property {{ runId: string, measuredAt: string | null, resultFile: string, cachedFrom: string | null }} source the run it came from
 * @property {{ layers: Partial<Record<LayerName, number>>, windowLayers: (Partial<Record<LayerName, number>> | null)[],
 *   keptAbovePerRequest: number, omitted: { functions: number, selfPerRequest: number }, generatedCodeNamed: boolean,
 *   functions?: CountedFunction[] | null, listFile?: string, listProblem?: string }} [functions] the count's functions by layer (none:
 *   not a count on Node, or one made before they were kept); the list is kept in FUNCTIONS_DIR, `<id>.json.gz`
 * @property {{ cpu: string, kernel: string, node: string, dyno: string, commit: string | null }} env
 */

/**
 * Checks a data directory before anything is measured: missing (it will be made), or one this dyno wrote with its records intact.
 * @param {string} dir
 * @returns {Map<string, TimelineRecord>} the records it holds, by id
 * @throws {DynoError} DYNO_ERR_DATASET naming what is wrong; DYNO_ERR_PATH when it cannot be written
 */
export function openDataset (dir) {
  const kind = inputKind(dir, `the data directory ${dir}`)
  if (kind === null) {
    checkWritableDirectory(dir, `the data directory ${dir}`)
    return new Map()
  }
  if (kind !== 'directory') {
    throw datasetError(`${dir} is a file; allowed: a directory made by \`dyno timeline\`, or one that does not exist yet`)
  }
  checkWritableDirectory(dir, `the data directory ${dir}`)
  const entries = readdirSync(dir)
  if (entries.length === 0) return new Map()
  const layoutPath = join(dir, DATASET_FILE)
  if (!entries.includes(DATASET_FILE)) {
    throw datasetError(
      `${dir} holds files but no ${DATASET_FILE}: it is not a timeline's data directory; allowed: one made by \`dyno timeline\`, ` +
        'an empty directory, or a new path'
    )
  }
  const layout = readJson(layoutPath, MAX_LAYOUT_BYTES)
  if (layout?.layout !== DATASET_LAYOUT.layout || layout?.layoutVersion !== DATASET_LAYOUT.layoutVersion) {
    throw datasetError(
      `${layoutPath} says layout ${JSON.stringify(layout?.layout)} version ${JSON.stringify(layout?.layoutVersion)}; this dyno ` +
        `reads and appends to ${DATASET_LAYOUT.layout} version ${DATASET_LAYOUT.layoutVersion} only`
    )
  }
  /** @type {Map<string, TimelineRecord>} */
  const records = new Map()
  const recordsDir = join(dir, RECORDS_DIR)
  const recordsKind = lstatOrNull(recordsDir)
  if (!recordsKind) return records
  // Everything read is inside the directory: records/ and its files are its own, never links to elsewhere.
  if (!recordsKind.isDirectory()) {
    throw datasetError(`${recordsDir} is ${recordsKind.isSymbolicLink() ? 'a symbolic link' : 'a file'}, not a directory`)
  }
  for (const name of readdirSync(recordsDir).sort()) {
    const path = join(recordsDir, name)
    if (!RECORD_FILE.test(name)) throw datasetError(`${path} is not a record dyno wrote (a record is named <24 hex digits>.json)`)
    const record = readJson(path, MAX_RECORD_BYTES)
    const problem = recordProblem(record)
    if (problem) throw datasetError(`${path} is not a record this dyno reads: ${problem}`)
    if (`${record.id}.json` !== name || idOf(record.key, record.status) !== record.id) {
      throw datasetError(`${path}: its id is not the ` +
      'hash of its key')
    }
    records.set(record.id, record)
  }
  return records
}

/**
 * What is wrong with a record, read back or about to be appended: its version, its schema, a release that is not a version (the
 * site sorts releases by semver). Fields the schema does not know are removed from it.
 * @param {any} record @returns {string | null} null: nothing
 */
export function recordProblem (record) {
  if (record?.recordVersion !== 1) return `recordVersion is ${JSON.stringify(record?.recordVersion)}, not 1`
  const problem = schemaProblem('timeline-record', record)
  if (problem) return problem
  const { id: countingId, ...counting } = record.key.counting
  if (countingIdOf(counting) !== countingId) {
    return `key.counting.id is ${countingId}, not the hash of the counting settings beside it: a record's line is named by what it ` +
      'was counted with'
  }
  if (semver.valid(record.key.release) !== record.key.release) {
    return `key.release is ${JSON.stringify(record.key.release).slice(0, 80)}; allowed: a version as semver writes it (4.21.2)`
  }
  return null
}

/**
 * Adds the records the directory does not hold yet; never rewrites one it holds.
 * @param {string} dir checked by openDataset @param {Map<string, TimelineRecord>} held what openDataset returned
 * @param {TimelineRecord[]} records
 * @returns {{ appended: TimelineRecord[], alreadyHeld: TimelineRecord[] }}
 */
export function appendToDataset (dir, held, records) {
  makeDirectory(join(dir, RECORDS_DIR))
  if (!existsSync(join(dir, DATASET_FILE))) {
    writeJsonAtomic(join(dir, DATASET_FILE), { ...DATASET_LAYOUT, createdAt: new Date().toISOString() })
  }
  const appended = []
  const alreadyHeld = []
  for (const record of records) {
    if (held.has(record.id) || existsSync(join(dir, RECORDS_DIR, `${record.id}.json`))) {
      alreadyHeld.push(record)
      continue
    }
    writeJsonAtomic(join(dir, RECORDS_DIR, `${record.id}.json`), withListWritten(dir, record))
    held.set(record.id, record)
    appended.push(record)
  }
  return { appended, alreadyHeld }
}

/**
 * Writes a record's function list into FUNCTIONS_DIR; the record as it is kept, naming that file.
 * @param {string} dir @param {TimelineRecord} record @returns {TimelineRecord}
 */
function withListWritten (dir, record) {
  const profile = record.functions
  if (!profile || !Array.isArray(profile.functions)) return record
  makeDirectory(join(dir, FUNCTIONS_DIR))
  const listFile = `${record.id}.json.gz`
  writeFunctionList(join(dir, FUNCTIONS_DIR, listFile), profile.functions)
  const { functions, ...kept } = profile
  return { ...record, functions: { ...kept, listFile } }
}

/**
 * A record's function list, read from FUNCTIONS_DIR; null with the reason where it has none or it cannot be read.
 * @param {string} dir the data directory @param {TimelineRecord} record read by openDataset (its id checked)
 * @returns {{ functions: CountedFunction[], problem: null } | { functions: null, problem: string }}
 */
export function recordFunctionList (dir, record) {
  const profile = record.functions
  if (!profile) {
    return { functions: null, problem: `the record ${record.id} has no functions: counted before they were kept, or not on Node` }
  }
  if (Array.isArray(profile.functions)) return { functions: profile.functions, problem: null }
  if (profile.listFile !== `${record.id}.json.gz`) {
    const named = JSON.stringify(profile.listFile)?.slice(0, 80)
    return { functions: null, problem: `the record ${record.id} names ${named} as its list; allowed: ${record.id}.json.gz` }
  }
  const read = readFunctionList(join(dir, FUNCTIONS_DIR, profile.listFile))
  // Checked against function-list.schema.json: the counted functions' shape.
  return read.problem === null ? { functions: /** @type {CountedFunction[]} */ (read.functions), problem: null } : read
}

/**
 * The id of a record's counting settings: the line it is drawn on.
 * @param {Omit<CountingSettings, 'id'>} settings in the order a record holds them
 */
export const countingIdOf = (settings) => createHash('sha256').update(JSON.stringify(settings)).digest('hex').slice(0, 12)

/**
 * A record's id: the hash of its key, and of whether it measured (a release that failed once and counts later gets a record of
 * its own beside the failure's).
 * @param {TimelineRecord['key']} key @param {string} status
 */
export function idOf (key, status) {
  return createHash('sha256').update(JSON.stringify([key, status === 'ok'])).digest('hex').slice(0, 24)
}

/** @param {string} path @param {number} maxBytes @returns {any} */
function readJson (path, maxBytes) {
  const { value, problem } = readBoundedJson(path, { maxBytes })
  if (problem !== null) throw datasetError(`${path} ${problem}`)
  return value
}

/** @param {string} path */
function lstatOrNull (path) {
  try {
    return lstatSync(path)
  } catch {
    return null
  }
}

/** @param {string} message */
const datasetError = (message) => new DynoError('DYNO_ERR_DATASET', `${message}; nothing was appended`)

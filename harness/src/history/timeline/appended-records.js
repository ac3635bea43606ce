// @ts-check
// What a change to a data directory kept in the repository may hold: records added, with their function lists, nothing else. A pull
// request from a fork (one that appends the counts it made) is data from elsewhere: every path it changes since it left its base must
// be a new record file under the directory's records/, or the function list of a record it adds under functions/ (a regular file as
// git holds it, never a link, never a file changed or removed, never a file elsewhere); each record it adds must read back as any
// record of a data directory does (timeline-dataset.js: the schema, its id the hash of its key, its counting id the hash of its
// settings), each list as a list does (function-list-file.js: bounded, gzip, its schema), and so must the directory this checkout holds.
//
// The change is read from git alone: the commit it ends at (`headRef`) need not be checked out, so a gate can run the checker of the
// base's own tree on a pull request's commit, whose files it never checks out, installs or runs (.github/workflows/dataset.yml).
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, sep } from 'node:path'
import { DynoError, isDynoError } from '../../platform/errors.js'
import { MAX_LIST_BYTES, readFunctionList } from '../../records/function-list-file.js'
import { DATASET_LAYOUT, DATASET_FILE, FUNCTIONS_DIR, MAX_RECORD_BYTES, openDataset, RECORD_FILE, RECORDS_DIR } from './timeline-dataset.js'

/** git's mode of a regular file (not executable): a link is 120000, a submodule 160000. */
const REGULAR_FILE_MODE = '100644'
/** A record's function list in FUNCTIONS_DIR. */
const LIST_FILE = /^[0-9a-f]{24}\.json\.gz$/
/** A refusal names this many problems, then says how many more there were. */
const MAX_PROBLEMS_NAMED = 20

/**
 * Checks what changed in a data directory of the repository between `baseRef` and `headRef` (from where headRef left baseRef: their
 * merge base), each record added, and the directory as this checkout holds it.
 * @param {{ repoDir: string, dataDir: string, baseRef: string, headRef?: string }} change dataDir: inside repoDir; headRef: HEAD when
 *   not given
 * @returns {{ added: string[], records: number }} the record files added, and the records the directory holds with them
 * @throws {DynoError} DYNO_ERR_DATASET naming every path that is wrong and what is wrong with it
 */
export function checkAppendedRecords ({ repoDir, dataDir, baseRef, headRef = 'HEAD' }) {
  const inside = relative(repoDir, dataDir).split(sep).join('/')
  if (inside === '' || inside.startsWith('..')) throw refused([`the data directory ${dataDir} is not inside the repository ${repoDir}`])
  const git = gitIn(repoDir)
  for (const [role, ref] of [['base', baseRef], ['head', headRef]]) {
    try {
      git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])
    } catch {
      throw refused([`the ${role} ${JSON.stringify(ref).slice(0, 80)} is not a commit of ${repoDir}`])
    }
  }
  let since
  try {
    since = git(['merge-base', baseRef, headRef]).trim()
  } catch {
    throw refused([`${headRef} shares no history with the base ${baseRef}`])
  }
  const { added, lists, problems } = changedPaths(git, { since, headRef, inside })
  problems.push(...added.flatMap((path) => addedRecordProblems(repoDir, headRef, path)))
  const addedIds = new Set(added.map((path) => path.slice(path.lastIndexOf('/') + 1, -'.json'.length)))
  problems.push(...lists.flatMap((path) => addedListProblems(repoDir, headRef, path, addedIds)))
  /** @type {Map<string, unknown>} */
  let held = new Map()
  try {
    held = openDataset(dataDir)
  } catch (error) {
    if (!isDynoError(error)) throw error
    problems.push(error.message)
  }
  if (problems.length > 0) throw refused(problems)
  return { added, records: new Set([...held.keys(), ...addedIds]).size }
}

/**
 * The paths changed from `since` to `headRef`: the record files added under the directory's records/, and what is wrong with every
 * other path (all of them, not the first: a change that edits the gate and adds a bad record is told both).
 * @param {(args: string[]) => string} git @param {{ since: string, headRef: string, inside: string }} range
 * @returns {{ added: string[], lists: string[], problems: string[] }}
 */
function changedPaths (git, { since, headRef, inside }) {
  // -z: paths exactly as git holds them (a newline or a quote in a name is not re-read as something else).
  const fields = git(['diff', '--no-ext-diff', '--no-textconv', '--no-renames', '--name-status', '-z', since, headRef, '--'])
    .split('\0').filter((field) => field !== '')
  const added = []
  const lists = []
  const problems = []
  const records = `${inside}/${RECORDS_DIR}/`
  const functions = `${inside}/${FUNCTIONS_DIR}/`
  for (let index = 0; index < fields.length; index += 2) {
    const [status, path] = [fields[index], fields[index + 1]]
    const isRecord = path.startsWith(records) && RECORD_FILE.test(path.slice(records.length))
    const isList = path.startsWith(functions) && LIST_FILE.test(path.slice(functions.length))
    if (!isRecord && !isList) {
      problems.push(`${path} is changed (${status}), and a change to the data may only add records under ${records} (<24 hex ` +
        `digits>.json) and their function lists under ${functions} (<24 hex digits>.json.gz)`)
    } else if (status !== 'A') {
      problems.push(`${path} is ${status === 'D' ? 'removed' : 'changed'}: a record or a list is never rewritten or removed, only added`)
    } else {
      (isRecord ? added : lists).push(path)
    }
  }
  return { added, lists, problems }
}

/**
 * What is wrong with one record file the change adds, read from git at `headRef` (never from a checkout of it): its mode, its size,
 * and then the record as a data directory reads one back, in a directory of its own holding it alone.
 * @param {string} repoDir @param {string} headRef @param {string} path
 * @returns {string[]} empty: nothing
 */
function addedRecordProblems (repoDir, headRef, path) {
  // `<mode> <type> <object> <size>\t<path>`
  const [mode, , object, size] = gitIn(repoDir)(['ls-tree', '-l', headRef, '--', path]).split('\t')[0].split(/ +/)
  if (mode !== REGULAR_FILE_MODE) return [`${path} is held by git with mode ${mode}, not as a regular file (${REGULAR_FILE_MODE})`]
  if (!(Number(size) <= MAX_RECORD_BYTES)) return [`${path} is ${size} bytes; a record is at most ${MAX_RECORD_BYTES}`]
  const alone = mkdtempSync(join(tmpdir(), 'dyno-added-record-'))
  try {
    writeFileSync(join(alone, DATASET_FILE), JSON.stringify(DATASET_LAYOUT))
    mkdirSync(join(alone, RECORDS_DIR))
    const name = path.slice(path.lastIndexOf('/') + 1)
    writeFileSync(join(alone, RECORDS_DIR, name), execFileSync('git', ['-C', repoDir, 'cat-file', 'blob', object],
      { maxBuffer: MAX_RECORD_BYTES, stdio: ['ignore', 'pipe', 'pipe'] }))
    openDataset(alone)
    return []
  } catch (error) {
    if (!isDynoError(error)) throw error
    return [error.message.replaceAll(join(alone, RECORDS_DIR), path.slice(0, path.lastIndexOf('/')))]
  } finally {
    rmSync(alone, { recursive: true, force: true })
  }
}

/**
 * What is wrong with one function list the change adds, read from git at `headRef`: its record must be added with it, and it must
 * read back as a list.
 * @param {string} repoDir @param {string} headRef @param {string} path @param {Set<string>} addedIds the records the change adds
 * @returns {string[]} empty: nothing
 */
function addedListProblems (repoDir, headRef, path, addedIds) {
  const name = path.slice(path.lastIndexOf('/') + 1)
  const id = name.slice(0, -'.json.gz'.length)
  if (!addedIds.has(id)) {
    return [`${path} is the function list of no record the change adds (records/${id}.json): a list comes with its record`]
  }
  const [mode, , object, size] = gitIn(repoDir)(['ls-tree', '-l', headRef, '--', path]).split('\t')[0].split(/ +/)
  if (mode !== REGULAR_FILE_MODE) return [`${path} is held by git with mode ${mode}, not as a regular file (${REGULAR_FILE_MODE})`]
  if (!(Number(size) <= MAX_LIST_BYTES)) return [`${path} is ${size} bytes; a function list is at most ${MAX_LIST_BYTES}`]
  const alone = mkdtempSync(join(tmpdir(), 'dyno-added-list-'))
  try {
    writeFileSync(join(alone, name), execFileSync('git', ['-C', repoDir, 'cat-file', 'blob', object],
      { maxBuffer: MAX_LIST_BYTES, stdio: ['ignore', 'pipe', 'pipe'] }))
    const { problem } = readFunctionList(join(alone, name))
    return problem === null ? [] : [problem.replaceAll(join(alone, name), path)]
  } finally {
    rmSync(alone, { recursive: true, force: true })
  }
}

/** @param {string} repoDir @returns {(args: string[]) => string} */
const gitIn = (repoDir) => (args) =>
  execFileSync('git', ['-C', repoDir, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] })

/** @param {string[]} problems */
function refused (problems) {
  const named = problems.slice(0, MAX_PROBLEMS_NAMED).join('; ')
  const more = problems.length > MAX_PROBLEMS_NAMED ? `; and ${problems.length - MAX_PROBLEMS_NAMED} more` : ''
  return new DynoError('DYNO_ERR_DATASET', `${named}${more}; nothing was appended`)
}

// @ts-check
// What a change to a data directory kept in the repository may hold: records added, nothing else. A workflow run from a fork (a pull
// request that appends the counts it made) is data from elsewhere: every path it changes since the base must be a new record file
// under the directory's records/ (a regular file as git holds it, never a link, never a record changed or removed, never a file
// elsewhere), and the directory as it then is must read back as any data directory does (timeline-dataset.js: the layout, each
// record's schema, its id the hash of its key, its counting id the hash of its settings).
import { execFileSync } from 'node:child_process'
import { relative, sep } from 'node:path'
import { DynoError } from '../../platform/errors.js'
import { openDataset, RECORD_FILE, RECORDS_DIR } from './timeline-dataset.js'

/** git's mode of a regular file (not executable): a link is 120000, a submodule 160000. */
const REGULAR_FILE_MODE = '100644'

/**
 * Checks what changed in a data directory of the repository since `baseRef`, and the directory as it is.
 * @param {{ repoDir: string, dataDir: string, baseRef: string }} change dataDir: inside repoDir
 * @returns {{ added: string[], records: number }} the record files added, and the records the directory holds
 * @throws {DynoError} DYNO_ERR_DATASET naming the path and what is wrong
 */
export function checkAppendedRecords ({ repoDir, dataDir, baseRef }) {
  const inside = relative(repoDir, dataDir).split(sep).join('/')
  if (inside === '' || inside.startsWith('..')) throw refused(`the data directory ${dataDir} is not inside the repository ${repoDir}`)
  const git = (/** @type {string[]} */ args) =>
    execFileSync('git', ['-C', repoDir, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  try {
    git(['rev-parse', '--verify', '--quiet', `${baseRef}^{commit}`])
  } catch {
    throw refused(`the base ${JSON.stringify(baseRef).slice(0, 80)} is not a commit of ${repoDir}`)
  }
  // -z: paths exactly as git holds them (a newline or a quote in a name is not re-read as something else).
  const fields = git(['diff', '--no-renames', '--name-status', '-z', baseRef, 'HEAD', '--']).split('\0').filter((field) => field !== '')
  const added = []
  for (let index = 0; index < fields.length; index += 2) {
    const [status, path] = [fields[index], fields[index + 1]]
    const name = path.slice(`${inside}/${RECORDS_DIR}/`.length)
    if (!path.startsWith(`${inside}/${RECORDS_DIR}/`) || name.includes('/') || !RECORD_FILE.test(name)) {
      throw refused(`${path} is changed (${status}), and a change to the data may only add records under ${inside}/${RECORDS_DIR}/ ` +
        '(<24 hex digits>.json)')
    }
    if (status !== 'A') {
      throw refused(`${path} is ${status === 'D' ? 'removed' : 'changed'}: a record is never rewritten or removed, only added`)
    }
    const mode = git(['ls-tree', 'HEAD', '--', path]).split(' ')[0]
    if (mode !== REGULAR_FILE_MODE) throw refused(`${path} is held by git with mode ${mode}, not as a regular file (${REGULAR_FILE_MODE})`)
    added.push(path)
  }
  const records = openDataset(dataDir)
  return { added, records: records.size }
}

/** @param {string} message */
const refused = (message) => new DynoError('DYNO_ERR_DATASET', `${message}; nothing was appended`)

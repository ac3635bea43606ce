// @ts-check
// What dyno keeps in its cache directory (the engine calibration, counts) is read back as measured, so it carries a seal: an
// HMAC of its content under a random key that this cache directory holds (created with it, readable by its owner only). A file
// dyno did not write with that key (made or edited by hand, copied from another cache) fails its seal and is measured again.
// The seal tells dyno's own writes from any other file; it is not a defence against someone who can read the cache directory.
// The key is trusted only as dyno writes it: a regular file of this user that no one else can write (any other is refused), holding
// one key (an empty or garbled one, left by a run killed while making it, is made anew, and what it sealed is measured again).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { closeSync, constants, fstatSync, linkSync, lstatSync, openSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DynoError } from '../errors.js'
import { makeDirectory } from './checked-paths.js'

const KEY_FILE = 'seal.key'
const KEY_PATTERN = /^[0-9a-f]{64}$/
/** More than a key and its newline: a longer file is garbled. */
const KEY_FILE_MAX_BYTES = 256
const WRITABLE_BY_OTHERS = 0o022

/** @typedef {{ state: 'key', key: Buffer } | { state: 'absent' } | { state: 'unusable', why: string }} KeyFile */

/**
 * @param {string} file @param {import('node:fs').Stats} stats of the key file itself, never of what a link points to
 * @throws {DynoError} DYNO_ERR_CACHE_KEY when it is not a file only this user can have written
 */
function checkKeyOwnership (file, stats) {
  const refuse = (/** @type {string} */ why) =>
    new DynoError('DYNO_ERR_CACHE_KEY', `${file} cannot be trusted to seal the cache: ${why}`)
  if (!stats.isFile()) throw refuse(stats.isSymbolicLink() ? 'it is a symbolic link' : 'it is not a regular file')
  const uid = process.getuid?.()
  if (uid !== undefined && stats.uid !== uid) throw refuse(`it belongs to uid ${stats.uid}, not to this user (uid ${uid})`)
  if (stats.mode & WRITABLE_BY_OTHERS) {
    throw refuse(`its group or others can write it (mode ${(stats.mode & 0o777).toString(8).padStart(4, '0')})`)
  }
}

/**
 * Reads the key file without following a link or blocking on a FIFO, checking the file it opened.
 * @param {string} file
 * @returns {KeyFile}
 * @throws {DynoError} DYNO_ERR_CACHE_KEY (checkKeyOwnership)
 */
function readKeyFile (file) {
  let fd
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  } catch (error) {
    const code = /** @type {NodeJS.ErrnoException} */ (error).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return { state: 'absent' }
    if (code !== 'ELOOP' && code !== 'EACCES') throw error
    checkKeyOwnership(file, lstatSync(file))
    return { state: 'unusable', why: 'it cannot be read' }
  }
  try {
    checkKeyOwnership(file, fstatSync(fd))
    const buffer = Buffer.alloc(KEY_FILE_MAX_BYTES)
    const text = buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8').trim()
    if (KEY_PATTERN.test(text)) return { state: 'key', key: Buffer.from(text, 'hex') }
    return { state: 'unusable', why: text === '' ? 'it is empty' : 'it holds no key' }
  } finally {
    closeSync(fd)
  }
}

/**
 * Writes a new key beside `file` and puts it in place at once: over an unusable key by a rename (two runs remaking it at once keep
 * whichever rename came last), and where there is none by a link, which never replaces, so that two first runs keep the first's.
 * @param {string} file @param {{ replace: boolean }} mode
 */
function writeNewKey (file, { replace }) {
  const temporary = `${file}.${process.pid}-${randomBytes(6).toString('hex')}.new`
  writeFileSync(temporary, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 })
  try {
    if (replace) renameSync(temporary, file)
    else linkSync(temporary, file)
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error
  } finally {
    rmSync(temporary, { force: true })
  }
}

/**
 * @param {string} cacheDir @param {{ create: boolean }} mode
 * @returns {Buffer | null} the cache directory's key; null when it has none it can use (and `create` is false)
 * @throws {DynoError} DYNO_ERR_CACHE_KEY when the key is not one only this user can have written
 */
function sealKey (cacheDir, { create }) {
  const file = join(cacheDir, KEY_FILE)
  const found = readKeyFile(file)
  if (found.state === 'key') return found.key
  if (!create) return null
  makeDirectory(cacheDir)
  writeNewKey(file, { replace: found.state === 'unusable' })
  const made = readKeyFile(file)
  if (made.state === 'key') return made.key
  const why = made.state === 'absent' ? 'it is gone' : made.why
  throw new DynoError('DYNO_ERR_CACHE_KEY', `${file} cannot be read back after it was written: ${why}`)
}

/** @param {Buffer} key @param {unknown} content @returns {string} */
const hmacOf = (key, content) => createHmac('sha256', key).update(JSON.stringify(content)).digest('hex')

/**
 * The seal of content about to be written to the cache directory (whose key is made the first time).
 * @param {string} cacheDir @param {unknown} content JSON-ready, written as it is beside its seal
 * @returns {string}
 * @throws {DynoError} DYNO_ERR_CACHE_KEY when the directory's key is not one only this user can have written
 */
export function sealOf (cacheDir, content) {
  return hmacOf(/** @type {Buffer} */ (sealKey(cacheDir, { create: true })), content)
}

/**
 * Whether content read from the cache directory carries the seal this directory would give it.
 * @param {string} cacheDir @param {unknown} content as parsed from the file, without its seal @param {unknown} seal as read
 * @returns {boolean}
 * @throws {DynoError} DYNO_ERR_CACHE_KEY when the directory's key is not one only this user can have written
 */
export function sealHolds (cacheDir, content, seal) {
  const key = sealKey(cacheDir, { create: false })
  if (!key || typeof seal !== 'string' || !/^[0-9a-f]{64}$/.test(seal)) return false
  return timingSafeEqual(Buffer.from(hmacOf(key, content), 'hex'), Buffer.from(seal, 'hex'))
}

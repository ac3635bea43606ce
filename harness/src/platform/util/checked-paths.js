// @ts-check
// Paths the user names are checked once, before anything starts, with one syscall at a time: Node's
// recursive mkdir spins for ever under a directory that refuses new entries (`/proc/nope`), so dyno makes
// directories one level at a time, and reads only regular files (a FIFO or /dev/zero would block or never end).
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { DynoError } from '../errors.js'

/** A file dyno reads (a result, a run index) larger than this is not one it wrote. */
export const MAX_INPUT_BYTES = 256 * 1024 * 1024

/** @param {string} path @returns {import('node:fs').Stats | null} null when nothing is there */
function statOrNull (path) {
  try {
    return statSync(path)
  } catch (error) {
    const code = /** @type {NodeJS.ErrnoException} */ (error).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return null
    throw error
  }
}

/** @param {import('node:fs').Stats} stats */
function kindOf (stats) {
  if (stats.isFile()) return 'a file'
  if (stats.isDirectory()) return 'a directory'
  if (stats.isFIFO()) return 'a FIFO'
  if (stats.isSocket()) return 'a socket'
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device'
  return 'not a regular file'
}

/** @param {unknown} error */
const reasonOf = (error) => /** @type {NodeJS.ErrnoException} */ (error).code ?? /** @type {Error} */ (error).message

/**
 * Checks that `path` is a directory dyno can write in, or can be created: the nearest part of it that
 * exists must be a directory that takes a new file. Creates nothing (the probe file is removed).
 * @param {string} path absolute
 * @param {string} what names the path in the message, e.g. "`--out` /etc/passwd"
 * @throws {DynoError} DYNO_ERR_PATH saying what is wrong
 */
export function checkWritableDirectory (path, what) {
  let existing = path
  let stats
  try {
    while (!(stats = statOrNull(existing)) && dirname(existing) !== existing) existing = dirname(existing)
  } catch (error) {
    throw new DynoError('DYNO_ERR_PATH', `${what} cannot be used: ${existing} cannot be read (${reasonOf(error)})`, { cause: error })
  }
  const subject = existing === path ? `${what} is` : `${what} cannot be created: ${existing} is`
  if (!stats?.isDirectory()) throw new DynoError('DYNO_ERR_PATH', `${subject} ${stats ? kindOf(stats) : 'missing'}, not a directory`)
  const probe = join(existing, `.dyno-write-check-${process.pid}`)
  try {
    writeFileSync(probe, '', { flag: 'wx' })
    rmSync(probe, { force: true })
  } catch (error) {
    throw new DynoError('DYNO_ERR_PATH', `${subject} not writable (a new file there fails with ${reasonOf(error)})`, { cause: error })
  }
}

/**
 * Makes `path` and every missing directory above it, one level at a time: each mkdir returns or throws.
 * @param {string} path absolute
 * @throws {DynoError} DYNO_ERR_RESULTS_WRITE naming the level that could not be made
 */
export function makeDirectory (path) {
  const missing = []
  for (let current = path; !statOrNull(current) && dirname(current) !== current; current = dirname(current)) missing.push(current)
  for (const directory of missing.reverse()) {
    try {
      mkdirSync(directory)
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code === 'EEXIST') continue
      throw new DynoError('DYNO_ERR_RESULTS_WRITE', `could not make the directory ${directory}: ${reasonOf(error)}`, { cause: error })
    }
  }
}

/**
 * What is at `path`, for an input dyno reads: a directory, a regular file of a sane size, or nothing.
 * @param {string} path
 * @param {string} what names the path in the message
 * @returns {'directory' | 'file' | null}
 * @throws {DynoError} DYNO_ERR_PATH for anything else (a FIFO, a device, a socket, a file too large to be dyno's)
 */
export function inputKind (path, what) {
  let stats
  try {
    stats = statOrNull(path)
  } catch (error) {
    throw new DynoError('DYNO_ERR_PATH', `${what} cannot be read (${reasonOf(error)})`, { cause: error })
  }
  if (!stats) return null
  if (stats.isDirectory()) return 'directory'
  if (!stats.isFile()) throw new DynoError('DYNO_ERR_PATH', `${what} is ${kindOf(stats)}, not a file or directory dyno wrote`)
  if (stats.size > MAX_INPUT_BYTES) {
    throw new DynoError('DYNO_ERR_PATH', `${what} is ${stats.size} bytes, larger than any file dyno writes (at most ${MAX_INPUT_BYTES})`)
  }
  return 'file'
}

// @ts-check
// Files another program wrote (a data directory restored from CI, a run downloaded from elsewhere, what a SUT or its runtime
// leaves beside it) are read as data: a regular file only, opened so that a FIFO cannot block the read (O_NONBLOCK) and, where
// asked, never through a symbolic link (O_NOFOLLOW); never more than a bound, said before a byte is read; JSON no deeper than a
// bound, checked before anything recurses into it.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'

/** How deep a JSON document dyno reads may nest: dyno's own are a dozen levels at most. */
export const MAX_JSON_DEPTH = 64

/**
 * @typedef {{ fd: number, size: number, problem: null } | { fd: null, size: null, problem: string }} OpenedFile problem: what is
 *   wrong with the path, in words that follow its name ("is a FIFO, not a regular file")
 */

/** @param {import('node:fs').Stats} stats */
function kindOf (stats) {
  if (stats.isDirectory()) return 'a directory'
  if (stats.isFIFO()) return 'a FIFO'
  if (stats.isSocket()) return 'a socket'
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device'
  return 'not a regular file'
}

/**
 * Opens a regular file for reading, and only that.
 * @param {string} path @param {{ followLinks?: boolean }} [options] followLinks: false refuses a symbolic link as the last part
 * @returns {OpenedFile}
 */
export function openRegularFile (path, { followLinks = false } = {}) {
  let fd
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | (followLinks ? 0 : constants.O_NOFOLLOW))
  } catch (error) {
    const code = /** @type {NodeJS.ErrnoException} */ (error).code
    const problem =
      code === 'ELOOP' ? 'is a symbolic link, not a file of its own' : code === 'ENOENT' ? 'does not exist' : `cannot be read (${code})`
    return { fd: null, size: null, problem }
  }
  const stats = fstatSync(fd)
  if (!stats.isFile()) {
    closeSync(fd)
    return { fd: null, size: null, problem: `is ${kindOf(stats)}, not a regular file` }
  }
  return { fd, size: stats.size, problem: null }
}

/**
 * A whole file's bytes, when it is a regular file no larger than `maxBytes`.
 * @param {string} path @param {{ maxBytes: number, followLinks?: boolean }} options
 * @returns {{ bytes: Buffer, problem: null } | { bytes: null, problem: string }}
 */
export function readBoundedBytes (path, { maxBytes, followLinks = false }) {
  const opened = openRegularFile(path, { followLinks })
  if (opened.fd === null) return { bytes: null, problem: opened.problem }
  try {
    if (opened.size > maxBytes) return { bytes: null, problem: `is ${opened.size} bytes, more than the ${maxBytes} dyno reads there` }
    const buffer = Buffer.alloc(opened.size)
    let read = 0
    while (read < buffer.length) {
      const got = readSync(opened.fd, buffer, read, buffer.length - read, read)
      if (got === 0) break
      read += got
    }
    return { bytes: buffer.subarray(0, read), problem: null }
  } catch (error) {
    return {
      bytes: null,
      problem: `cannot be read (${/** @type {NodeJS.ErrnoException} */ (error).code ?? /** @type {Error} */ (error).message})`
    }
  } finally {
    closeSync(opened.fd)
  }
}

/**
 * A whole file's text, when it is a regular file no larger than `maxBytes`.
 * @param {string} path @param {{ maxBytes: number, followLinks?: boolean }} options
 * @returns {{ text: string, problem: null } | { text: null, problem: string }}
 */
export function readBoundedText (path, options) {
  const { bytes, problem } = readBoundedBytes(path, options)
  return bytes === null ? { text: null, problem } : { text: bytes.toString('utf8'), problem: null }
}

/**
 * How deep a JSON text nests, counted without parsing it (strings skipped); stops counting past `limit`.
 * @param {string} text @param {number} limit @returns {number} at most limit + 1
 */
export function jsonDepth (text, limit) {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let at = 0; at < text.length; at++) {
    const char = text.charCodeAt(at)
    if (inString) {
      if (char === 0x5c) at += 1
      else if (char === 0x22) inString = false
    } else if (char === 0x22) {
      inString = true
    } else if (char === 0x7b || char === 0x5b) {
      depth += 1
      if (depth > deepest && (deepest = depth) > limit) return deepest
    } else if (char === 0x7d || char === 0x5d) {
      depth -= 1
    }
  }
  return deepest
}

/**
 * A JSON document from a file, read as readBoundedText reads and nested no deeper than MAX_JSON_DEPTH.
 * @param {string} path @param {{ maxBytes: number, followLinks?: boolean }} options
 * @returns {{ value: unknown, problem: null } | { value: null, problem: string }}
 */
export function readBoundedJson (path, options) {
  const { text, problem } = readBoundedText(path, options)
  return text === null ? { value: null, problem } : parsedJson(text)
}

/**
 * A gzipped JSON document, bounded twice: the file by `maxBytes`, and what it inflates to by `maxTextBytes` (a few kilobytes of gzip
 * can inflate to gigabytes).
 * @param {string} path @param {{ maxBytes: number, maxTextBytes: number }} options
 * @returns {{ value: unknown, problem: null } | { value: null, problem: string }}
 */
export function readBoundedGzipJson (path, { maxBytes, maxTextBytes }) {
  const { bytes, problem } = readBoundedBytes(path, { maxBytes })
  if (bytes === null) return { value: null, problem }
  let text
  try {
    text = gunzipSync(bytes, { maxOutputLength: maxTextBytes }).toString('utf8')
  } catch (error) {
    const code = /** @type {NodeJS.ErrnoException} */ (error).code
    return {
      value: null,
      problem: code === 'ERR_BUFFER_TOO_LARGE'
        ? `inflates to more than the ${maxTextBytes} bytes dyno reads there`
        : `is not gzip (${/** @type {Error} */ (error).message})`
    }
  }
  return parsedJson(text)
}

/** @param {string} text @returns {{ value: unknown, problem: null } | { value: null, problem: string }} */
function parsedJson (text) {
  if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    return { value: null, problem: `nests deeper than the ${MAX_JSON_DEPTH} levels dyno reads` }
  }
  try {
    return { value: JSON.parse(text), problem: null }
  } catch (error) {
    return { value: null, problem: `does not parse as JSON (${/** @type {Error} */ (error).message.split('\n')[0]})` }
  }
}

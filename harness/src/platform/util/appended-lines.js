// @ts-check
// The lines another program appends to a file (a SUT's runtime writing its log, a preload its events), read as they are written:
// each read takes what was appended since the last one, in pieces of bounded size, a regular file only (a FIFO put in its place
// never blocks the read), never through a symbolic link, and never a file larger than a bound: past it, the file is refused, once
// and for good, with the reason. A line longer than a bound is dropped whole, never kept growing.
import { closeSync, readSync } from 'node:fs'
import { StringDecoder } from 'node:string_decoder'
import { openRegularFile } from './bounded-files.js'

/** What one read takes from the file at most, so that no read allocates more. */
const PIECE_BYTES = 4 * 1024 * 1024

/**
 * @param {string} path
 * @param {{ maxBytes: number, maxLineBytes?: number, what: string }} options maxBytes: the largest file read at all;
 *   what: names the file in a refusal ("the V8 log")
 */
export function createAppendedLineReader (path, { maxBytes, maxLineBytes = 64 * 1024, what }) {
  let offset = 0
  // A character split between two pieces is put together again.
  const decoder = new StringDecoder('utf8')
  let carry = ''
  let skipping = false
  /** @type {string | null} */
  let refused = null

  /** @param {string} text what was read, after the carried start of a line @param {string[]} into */
  const split = (text, into) => {
    const parts = (carry + text).split('\n')
    carry = parts.pop() ?? ''
    for (const line of parts) {
      if (skipping) skipping = false
      else into.push(line)
    }
    if (carry.length > maxLineBytes) {
      carry = ''
      skipping = true
    }
  }

  return {
    /** @returns {string[]} the whole lines appended since the last read; none once the file is refused */
    read () {
      if (refused !== null) return []
      const opened = openRegularFile(path)
      if (opened.fd === null) {
        if (opened.problem !== 'does not exist') refused = `${what} ${path} ${opened.problem}`
        return []
      }
      /** @type {string[]} */
      const lines = []
      try {
        if (opened.size > maxBytes) {
          refused = `${what} ${path} is ${opened.size} bytes, more than the ${maxBytes} dyno reads`
          return []
        }
        const buffer = Buffer.alloc(Math.min(PIECE_BYTES, Math.max(0, opened.size - offset)))
        while (offset < opened.size) {
          const got = readSync(opened.fd, buffer, 0, Math.min(buffer.length, opened.size - offset), offset)
          if (got === 0) break
          offset += got
          split(decoder.write(buffer.subarray(0, got)), lines)
        }
      } finally {
        closeSync(opened.fd)
      }
      return lines
    },
    /** why the file is no longer read; null while it is */
    get refused () { return refused }
  }
}

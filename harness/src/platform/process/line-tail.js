// @ts-check
import { DEFAULTS } from '../defaults.js'
import { maskSecrets } from '../util/mask-secrets.js'

/** The characters a kept line holds at most: a process that writes without newlines is kept as the start of one long line. */
export const LINE_LIMIT_CHARS = 2000

/**
 * A line as it may be shown in a terminal or a file: its CR of a CRLF ending dropped, control characters (an escape sequence among
 * them) written as `\xNN`, and what passed the line's limit counted.
 * @param {string} line @param {number} droppedChars
 */
const shown = (line, droppedChars) => {
  // eslint-disable-next-line no-control-regex
  const escaped = line.replace(/\r$/, '').replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (char) =>
    `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`)
  return escaped + (droppedChars > 0 ? ` … (${droppedChars} more characters)` : '')
}

/**
 * Keeps the last `limit` lines of a stream that is read to the end (a SUT's stderr), so that a failure can show what the process said
 * without buffering everything it ever wrote: each line up to LINE_LIMIT_CHARS, each chunk read once. What another program said may
 * hold a secret (a SUT naming the URL it could not reach): every line is kept masked, and shown with its control characters escaped.
 */
export class LineTail {
  /** @param {number} [limit] how many lines are kept: by default as many as an error quotes */
  constructor (limit = DEFAULTS.errorTailLines) {
    this.limit = limit
    /** @type {string[]} */
    this.lines = []
    this.partial = ''
    this.droppedChars = 0
  }

  /** @param {Buffer | string} chunk */
  push (chunk) {
    const parts = chunk.toString().split('\n')
    const last = /** @type {string} */ (parts.pop())
    for (const part of parts) {
      this.extend(part)
      this.lines.push(shown(maskSecrets(this.partial), this.droppedChars))
      if (this.lines.length > this.limit) this.lines.shift()
      this.partial = ''
      this.droppedChars = 0
    }
    this.extend(last)
  }

  /** @param {string} text more of the unfinished line: kept up to the limit, the rest counted */
  extend (text) {
    const room = LINE_LIMIT_CHARS - this.partial.length
    this.partial += text.slice(0, Math.max(0, room))
    this.droppedChars += Math.max(0, text.length - Math.max(0, room))
  }

  /** @returns {string[]} the kept lines, with an unfinished last line included */
  snapshot () {
    const unfinished = this.partial || this.droppedChars > 0 ? [shown(maskSecrets(this.partial), this.droppedChars)] : []
    return [...this.lines, ...unfinished].slice(-this.limit)
  }

  /** @returns {string} the kept lines as one indented block, or a note that there were none */
  format () {
    const lines = this.snapshot()
    return lines.length === 0 ? '(no output)' : lines.map((line) => `  | ${line}`).join('\n')
  }
}

// @ts-check
import { DEFAULTS } from '../defaults.js'
import { maskSecrets } from '../util/mask-secrets.js'

/**
 * Keeps the last `limit` lines of a stream that is read to the end (a SUT's stderr), so that a
 * failure can show what the process said without buffering everything it ever wrote. What another
 * program said may hold a secret (a SUT naming the URL it could not reach): every line is kept masked.
 */
export class LineTail {
  /** @param {number} [limit] how many lines are kept: by default as many as an error quotes */
  constructor (limit = DEFAULTS.errorTailLines) {
    this.limit = limit
    /** @type {string[]} */
    this.lines = []
    this.partial = ''
  }

  /** @param {Buffer | string} chunk */
  push (chunk) {
    const parts = (this.partial + chunk.toString()).split('\n')
    this.partial = parts.pop() ?? ''
    for (const line of parts) {
      this.lines.push(maskSecrets(line))
      if (this.lines.length > this.limit) this.lines.shift()
    }
  }

  /** @returns {string[]} the kept lines, with an unfinished last line included */
  snapshot () {
    const lines = this.partial ? [...this.lines, maskSecrets(this.partial)] : [...this.lines]
    return lines.slice(-this.limit)
  }

  /** @returns {string} the kept lines as one indented block, or a note that there were none */
  format () {
    const lines = this.snapshot()
    return lines.length === 0 ? '(no output)' : lines.map((line) => `  | ${line}`).join('\n')
  }
}

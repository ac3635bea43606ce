// @ts-check
// How one of dyno's scripts run on a host (run-node-script.js) hands its answer back. A host's login may print anything on the same
// stdout before the script starts and after it ends (a banner, a motd, an `echo` in .bashrc), and without a newline: the reply is the
// one line that starts with REPLY_MARKER and the nonce dyno drew for that call, its value in JSON, and every other line is not read.
// The nonce reaches the script in its environment (REPLY_NONCE_ENV), so that a reply of another call never passes for this one's.
import { randomBytes } from 'node:crypto'

/** The environment variable that holds the call's nonce. */
export const REPLY_NONCE_ENV = 'DYNO_REPLY_NONCE'
/** The reply's line starts with this, then the nonce and a space (U+001E, as the process guard's lines: no login prints it). */
export const REPLY_MARKER = '\u001edyno-reply '
/** A nonce: 16 random bytes in hex. */
const NONCE = /^[0-9a-f]{32}$/
/** The longest reply line read (an instruction count's windows are the largest reply, tens of KB): a longer line is not the reply. */
export const MAX_REPLY_CHARS = 4 * 1024 * 1024
/** In a script runNodeScript started, its call's nonce: taken out of the environment as the script loads, so that nothing it starts (the
 * SUT a count runs under valgrind) inherits it. */
const OWN_NONCE = process.env[REPLY_NONCE_ENV] ?? ''
delete process.env[REPLY_NONCE_ENV]

/**
 * Writes the script's reply on its own line: called once, by a script runNodeScript started.
 * @param {unknown} value anything JSON holds
 */
export function writeReply (value) {
  if (!NONCE.test(OWN_NONCE)) throw new Error(`${REPLY_NONCE_ENV} held no nonce: this script replies to dyno's runNodeScript`)
  // The newline first: what the login printed before may not have ended its line.
  process.stdout.write(`\n${REPLY_MARKER}${OWN_NONCE} ${JSON.stringify(value)}\n`)
}

/**
 * Reads a script's stdout as it comes and keeps the reply of this nonce: at most the reply's line is held, the rest is dropped as it
 * comes, so a host that prints without end costs no memory.
 * @param {string} nonce
 * @returns {{ push: (text: string) => void, reply: () => { value: unknown } | null }} push: the next of stdout, decoded; reply: the
 *   value of the first line that is this nonce's reply and parses, once stdout has ended; null when none was
 */
export function replyReader (nonce) {
  const start = `${REPLY_MARKER}${nonce} `
  let line = ''
  let skipping = false
  /** @type {{ value: unknown } | null} */
  let found = null
  const lineEnded = () => {
    if (!skipping && !found && line.startsWith(start)) found = parsed(line.slice(start.length))
    line = ''
    skipping = false
  }
  return {
    push (text) {
      const parts = text.split('\n')
      parts.forEach((part, index) => {
        if (index > 0) lineEnded()
        if (skipping || found) return
        line += part
        // A line that can no longer be the reply, or has grown past it, is dropped up to its end.
        const fits = line.length <= start.length ? start.startsWith(line) : line.startsWith(start)
        if (!fits || line.length > MAX_REPLY_CHARS) {
          skipping = true
          line = ''
        }
      })
    },
    reply () {
      if (line) lineEnded()
      return found
    }
  }
}

/**
 * A nonce for one call: given to the script in its environment (REPLY_NONCE_ENV), then looked for in what it printed.
 * @returns {string}
 */
export const replyNonce = () => randomBytes(16).toString('hex')

/**
 * The reply of this nonce in a script's whole stdout, collected already (a command run over SSH).
 * @param {string} stdout @param {string} nonce
 * @returns {{ value: unknown } | null} null: no line of it was this nonce's reply
 */
export function replyIn (stdout, nonce) {
  const reader = replyReader(nonce)
  reader.push(stdout)
  return reader.reply()
}

/** @param {string} json @returns {{ value: unknown } | null} */
function parsed (json) {
  try {
    return { value: JSON.parse(json.replace(/\r$/, '')) }
  } catch {
    return null
  }
}

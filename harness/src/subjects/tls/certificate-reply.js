// @ts-check
// What certificate-files.js (on a host) and certificate-on-host.js (here) agree on: the name of a copy's directory, made of a nonce
// dyno draws before anything is written, and the one line of the reply, which starts with a marker and that nonce. A host's login
// files may print anything before or after it (a banner, a `motd`, an `echo` in .bashrc); none of that is read as the reply.

/** A copy's directory in the host's temporary directory is this and the nonce; `remove` takes no other. */
export const COPY_DIR_PREFIX = 'dyno-tls-'
/** The reply's line starts with this, then the nonce (U+001E, as the process guard's lines: no login prints it). */
export const REPLY_MARKER = '\u001edyno-tls-reply '
/** A nonce: 16 random bytes in hex, drawn for each copy. */
export const NONCE = /^[0-9a-f]{32}$/
/** A reply is two paths: a line longer than this is not one. */
const MAX_REPLY_CHARS = 16 * 1024

/**
 * The reply `place` printed for this nonce, out of everything the host printed: null when no line is the reply, or it does not parse
 * as two paths.
 * @param {string} stdout @param {string} nonce
 * @returns {{ certFile: string, keyFile: string | null } | null}
 */
export function replyOf (stdout, nonce) {
  const start = `${REPLY_MARKER}${nonce} `
  const line = stdout.split('\n').find((candidate) => candidate.startsWith(start))
  if (!line || line.length > MAX_REPLY_CHARS) return null
  /** @type {unknown} */
  let reply
  try {
    reply = JSON.parse(line.slice(start.length).trimEnd())
  } catch {
    return null
  }
  if (typeof reply !== 'object' || reply === null) return null
  const { certFile, keyFile } = /** @type {Record<string, unknown>} */ (reply)
  if (typeof certFile !== 'string' || (keyFile !== null && typeof keyFile !== 'string')) return null
  return { certFile, keyFile }
}

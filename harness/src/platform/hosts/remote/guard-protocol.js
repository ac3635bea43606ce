// @ts-check
// What the process guard (process-guard.js, on a host) and dyno (guarded-process.js, here) say to each other over one SSH session.
// The guarded process's stdout passes through untouched; its stderr passes through line by line, and the guard's own messages are
// lines of the same stream that start with GUARD_LINE_PREFIX. A line of the process that starts with the prefix's first character
// is sent with one more of it in front (escapeProcessLine), so that no line the process prints can read as the guard's, and dyno
// reads a guard line it cannot make sense of as text (readSessionLine), never as a message. dyno writes a heartbeat byte to the guard's
// stdin every HEARTBEAT_INTERVAL_MS: the guard stops the process when the session ends (end of stdin) or when no heartbeat came for
// HEARTBEAT_TIMEOUT_MS (a link that dropped without the SSH server noticing).

export const GUARD_LINE_PREFIX = '\u001edyno-guard '
/** The prefix's first character (ASCII's record separator): a process's line starting with it gets one more in front. */
const ESCAPE = GUARD_LINE_PREFIX[0]
/** The longest line of the process passed whole: a longer one (a process that writes without newlines) is passed in pieces of it. */
export const PROCESS_LINE_LIMIT_CHARS = 64 * 1024
export const HEARTBEAT_INTERVAL_MS = 1000
export const HEARTBEAT_TIMEOUT_MS = 6000

/**
 * @typedef {object} GuardSpec what the guard starts
 * @property {string} command
 * @property {string[]} args
 * @property {string} cwd relative to the checkout, or absolute
 * @property {Record<string, string>} env added to the login's environment
 * @property {string[]} unsetEnv removed from it
 * @property {number} graceMs SIGTERM to the group, SIGKILL after this
 * @property {number} sampleMs how often the group's processes are read from /proc and reported (0: never)
 * @property {string} [stdinText] written to the process's standard input, which then ends
 * @property {number} [uid] run it as this user
 * @property {number} [gid]
 *
 * @typedef {{ event: 'started', pid: number, clockTicksPerSec: number, pageSizeBytes: number }
 *   | { event: 'sample', members: import('../../process/proc-reader.js').ProcStat[] }
 *   | { event: 'spawn-error', message: string }
 *   | { event: 'stopping', why: string }
 *   | { event: 'exit', code: number | null, signal: string | null, forced: boolean, survivors: number }} GuardMessage
 */

/** @param {GuardSpec} spec @returns {string} one shell-safe argument */
export const encodeSpec = (spec) => Buffer.from(JSON.stringify(spec)).toString('base64url')

/** @param {string} text @returns {GuardSpec} */
export const decodeSpec = (text) => JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))

/** @param {GuardMessage} message */
export const guardLine = (message) => `${GUARD_LINE_PREFIX}${JSON.stringify(message)}\n`

/** @param {string} line one line of the guarded process's stderr, without its newline @returns {string} the line as the guard sends it */
export const escapeProcessLine = (line) => line.startsWith(ESCAPE) ? `${ESCAPE}${line}` : line

/**
 * One line of the session's stderr, as dyno reads it: a message of the guard, or a line of the process (or of ssh) as it printed it.
 * A line with the prefix that is not a message the guard sends (garbled, of an unknown kind, a field of the wrong type) is text.
 * @param {string} line without its newline
 * @returns {{ message: GuardMessage, text?: undefined } | { text: string, message?: undefined }}
 */
export function readSessionLine (line) {
  if (line.startsWith(`${ESCAPE}${ESCAPE}`)) return { text: line.slice(ESCAPE.length) }
  if (!line.startsWith(GUARD_LINE_PREFIX)) return { text: line }
  let value
  try {
    value = JSON.parse(line.slice(GUARD_LINE_PREFIX.length))
  } catch {
    return { text: line }
  }
  const message = guardMessageOf(value)
  return message ? { message } : { text: line }
}

const isCount = (/** @type {unknown} */ value) => Number.isSafeInteger(value) && /** @type {number} */ (value) >= 0
const isFigure = (/** @type {unknown} */ value) => typeof value === 'number' && Number.isFinite(value) && value >= 0
const isPositive = (/** @type {unknown} */ value) => isFigure(value) && /** @type {number} */ (value) > 0
const isObject = (/** @type {unknown} */ value) => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * @param {unknown} value parsed JSON
 * @returns {GuardMessage | null} the message with its known fields only, or null when it is not one the guard sends
 */
function guardMessageOf (value) {
  if (!isObject(value)) return null
  const fields = /** @type {Record<string, unknown>} */ (value)
  switch (fields.event) {
    case 'started':
      return isPositive(fields.pid) && isCount(fields.pid) && isPositive(fields.clockTicksPerSec) && isPositive(fields.pageSizeBytes)
        ? {
            event: 'started',
            pid: Number(fields.pid),
            clockTicksPerSec: Number(fields.clockTicksPerSec),
            pageSizeBytes: Number(fields.pageSizeBytes)
          }
        : null
    case 'sample': {
      if (!Array.isArray(fields.members)) return null
      const members = fields.members.map(procStatOf)
      return members.every((member) => member !== null) ? { event: 'sample', members } : null
    }
    case 'spawn-error':
      return typeof fields.message === 'string' ? { event: 'spawn-error', message: fields.message } : null
    case 'stopping':
      return typeof fields.why === 'string' ? { event: 'stopping', why: fields.why } : null
    case 'exit':
      return (fields.code === null || Number.isSafeInteger(fields.code)) && (fields.signal === null || typeof fields.signal === 'string') &&
        typeof fields.forced === 'boolean' && isCount(fields.survivors)
        ? {
            event: 'exit',
            code: /** @type {number | null} */ (fields.code),
            signal: /** @type {string | null} */ (fields.signal),
            forced: fields.forced,
            survivors: Number(fields.survivors)
          }
        : null
    default:
      return null
  }
}

const PROC_COUNTS = /** @type {const} */ (['pid', 'ppid', 'pgid', 'session', 'processor'])
const PROC_FIGURES = /** @type {const} */ (['utimeTicks', 'stimeTicks', 'startTicks', 'rssPages'])

/**
 * @param {unknown} value one member of a sample
 * @returns {import('../../process/proc-reader.js').ProcStat | null}
 */
function procStatOf (value) {
  if (!isObject(value)) return null
  const fields = /** @type {Record<string, unknown>} */ (value)
  if (!PROC_COUNTS.every((name) => isCount(fields[name])) || !PROC_FIGURES.every((name) => isFigure(fields[name]))) return null
  if (typeof fields.state !== 'string' || typeof fields.comm !== 'string' || typeof fields.kernelThread !== 'boolean') return null
  return {
    pid: Number(fields.pid),
    state: fields.state,
    ppid: Number(fields.ppid),
    pgid: Number(fields.pgid),
    session: Number(fields.session),
    utimeTicks: Number(fields.utimeTicks),
    stimeTicks: Number(fields.stimeTicks),
    startTicks: Number(fields.startTicks),
    rssPages: Number(fields.rssPages),
    processor: Number(fields.processor),
    kernelThread: fields.kernelThread,
    comm: fields.comm
  }
}

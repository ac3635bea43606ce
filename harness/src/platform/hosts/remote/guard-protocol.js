// @ts-check
// What the process guard (process-guard.js, on a host) and dyno (guarded-process.js, here) say to each other over one SSH session.
// The guarded process's stdout passes through untouched; its stderr passes through line by line, and the guard's own messages are
// lines of the same stream that start with GUARD_LINE_PREFIX, which no program prints. dyno writes a heartbeat byte to the guard's
// stdin every HEARTBEAT_INTERVAL_MS: the guard stops the process when the session ends (end of stdin) or when no heartbeat came for
// HEARTBEAT_TIMEOUT_MS (a link that dropped without the SSH server noticing).

export const GUARD_LINE_PREFIX = '\u001edyno-guard '
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

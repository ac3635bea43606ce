// @ts-check
// Who another process is, as the interference census names it in a result: what identifies it without publishing it. Its
// executable's file name (of /proc/<pid>/exe; where that cannot be read, the first word of the name the kernel keeps for it, which
// a program may set to its title: `npm exec tsc -p`), never its arguments; its user when that is not the run's; and its arguments
// only when the run was asked for them (`--census-args on`, unsafe to share), masked as far as a list of forms goes
// (util/mask-secrets.js). Results are shared (CI artifacts, the site); other people's command lines are not dyno's to publish.
import { readFileSync, readlinkSync, statSync } from 'node:fs'
import { basename } from 'node:path'
import { readBoundedText } from '../util/bounded-files.js'
import { maskArguments } from '../util/mask-secrets.js'
import { readProcStat } from '../process/proc-reader.js'

/** The arguments, when recorded, are cut to this many characters. */
const ARGS_CHARS = 120

/**
 * @typedef {object} ProcessIdentity
 * @property {string} name its executable's file name (`node`, `sshpass`); `[kworker/0:1]` for a thread of the kernel; `?` once ended
 * @property {string | null} user its user's name (or `uid N`) when it is not the user dyno runs as; null when it is
 * @property {string} [args] its command line, masked and cut: only with `--census-args on`
 */

/** @type {Map<number, string> | null} uid → name, from /etc/passwd, read once */
let userNames = null

/** @param {number} uid */
function userName (uid) {
  if (!userNames) {
    userNames = new Map()
    const { text } = readBoundedText('/etc/passwd', { maxBytes: 4 * 1024 * 1024, followLinks: true })
    for (const line of (text ?? '').split('\n')) {
      const [name, , id] = line.split(':')
      if (name && /^\d+$/.test(id ?? '') && !userNames.has(Number(id))) userNames.set(Number(id), name)
    }
  }
  return userNames.get(uid) ?? `uid ${uid}`
}

/** @param {number} pid @returns {string | null} the file name of its executable; null when it cannot be read (another user's) */
function executableOf (pid) {
  try {
    return basename(readlinkSync(`/proc/${pid}/exe`).replace(/ \(deleted\)$/, '')) || null
  } catch {
    return null
  }
}

/**
 * @param {number} pid @param {{ args: boolean }} options args: record its arguments too (`--census-args on`)
 * @returns {ProcessIdentity}
 */
export function processIdentity (pid, { args }) {
  const stat = readProcStat(pid)
  // eslint-disable-next-line no-control-regex -- a process names itself (prctl): what it put there is shown as text
  const comm = (stat?.comm ?? '?').replace(/[\u0000-\u001f\u007f]/g, '?')
  const name = stat?.kernelThread ? `[${comm}]` : executableOf(pid) ?? comm.split(' ')[0]
  let uid = null
  try {
    uid = statSync(`/proc/${pid}`).uid
  } catch {
    // ended already
  }
  const user = uid === null || uid === process.getuid?.() ? null : userName(uid)
  if (!args) return { name, user }
  let argv = []
  try {
    argv = readFileSync(`/proc/${pid}/cmdline`, 'latin1').replace(/\0+$/, '').split('\0').filter((argument) => argument !== '')
  } catch {
    // ended already
  }
  const line = argv.length > 0 ? maskArguments(argv) : name
  return { name, user, args: line.length > ARGS_CHARS ? `${line.slice(0, ARGS_CHARS - 3)}…` : line }
}

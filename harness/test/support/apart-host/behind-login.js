// @ts-check
// A host of its own (the test kind `apart://`) behind a login shell of the test's making: the login runs a shell script around each
// command dyno launches there with its checkout (runNodeScript's scripts), and may print what it likes before and after it, as a
// banner, a motd or an `echo` in .bashrc do on a real host. Its temporary directory is the test's, so what a script leaves is seen.
import { mkdtempSync } from 'node:fs'
import { join } from 'node:path'
import { connectHost, HOST_KINDS, parseHost } from '../../../src/platform/hosts/host-kinds.js'
import { apartHostKind } from './apart-kind.js'

const KINDS = [...HOST_KINDS, apartHostKind]

/**
 * @param {{ name: string, login: string, work: string, runId: string, role?: 'sut' | 'load', commandLines?: string[][] }} spec
 *   login: sh, given the command as "$@"; work: where the host's temporary directory is made; runId: marks what the login starts;
 *   commandLines: every command line the login is given is added here
 * @returns {Promise<{ host: import('../../../src/platform/hosts/host.js').Host, tmp: string }>}
 */
export async function hostBehindLogin ({ name, login, work, runId, role = 'load', commandLines = [] }) {
  const tmp = mkdtempSync(join(work, `${name}-`))
  const host = await connectHost(parseHost(`apart://${name}`, role === 'sut' ? '--sut-host' : '--load-hosts', KINDS), role, KINDS)
  /** @type {import('../../../src/platform/hosts/host.js').Host['launchOn']} */
  const launchOn = (command, args) => {
    commandLines.push([command, ...args])
    return { command: 'sh', args: ['-c', `export TMPDIR="$0" DYNO_RUN_ID=${runId}; ${login}`, tmp, command, ...args] }
  }
  return { host: { ...host, launchOn }, tmp }
}

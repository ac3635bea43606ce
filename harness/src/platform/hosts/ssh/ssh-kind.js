// @ts-check
// Hosts reached over SSH (`ssh://[user@]host[:port][/dir]`), with the user's own OpenSSH and a checkout of dyno there that
// `dyno host prepare` makes: another machine, whose files, network and processes are its own.
import { connectSshHost } from './ssh-host.js'
import { parseHostUrl, SSH_FORM } from './ssh-url.js'
import { prepareHost } from './prepare-host.js'

/** @type {import('../host.js').HostKind} */
export const sshHostKind = {
  name: 'ssh',
  form: SSH_FORM,
  names: (text) => text.trim().startsWith('ssh://'),
  parse: (text, flag) => parseHostUrl(text, flag),
  connect: (target, role) => connectSshHost(/** @type {import('./ssh-url.js').SshTarget} */ (target), role),
  prepare: (target, onLine) => prepareHost(/** @type {import('./ssh-url.js').SshTarget} */ (target), { onLine })
}

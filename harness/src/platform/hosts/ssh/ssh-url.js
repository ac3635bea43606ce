// @ts-check
// `ssh://[user@]host[:port][/dir]`: a host dyno reaches with the user's own OpenSSH, and where its checkout of dyno lives there.
import { DynoError } from '../../errors.js'

/** Where a host's checkout is when its URL names no directory: relative to the login's home. */
export const DEFAULT_HOST_DIR = 'dyno'

/**
 * @typedef {object} SshTarget
 * @property {'ssh'} kind
 * @property {string} url as given, normalised (`ssh://user@host:port/dir`)
 * @property {string | null} user null: the SSH configuration's
 * @property {string} hostname as ssh gets it (a name of the SSH configuration, a DNS name or an address)
 * @property {number | null} port null: the SSH configuration's
 * @property {string} dir the checkout of dyno on the host: absolute, or relative to the login's home
 */

export const SSH_FORM = '`ssh://[user@]host[:port][/absolute/dir]` such as `ssh://bench@10.0.0.2` or `ssh://sut-box:2222/srv/dyno`'

/**
 * @param {string} raw
 * @param {string} flag the option or argument it came from, named in errors
 * @returns {SshTarget}
 * @throws {DynoError} DYNO_ERR_INVALID_OPTION naming the value and the form allowed
 */
export function parseHostUrl (raw, flag) {
  const invalid = (/** @type {string} */ why) =>
    new DynoError('DYNO_ERR_INVALID_OPTION', `\`${flag}\` ${why}; the form is ${SSH_FORM}, got \`${raw}\``)
  const text = String(raw).trim()
  if (!text.startsWith('ssh://')) throw invalid('must be an ssh:// URL')
  /** @type {URL} */
  let url
  try {
    url = new URL(text)
  } catch {
    throw invalid('is not a URL')
  }
  if (url.password) throw invalid('must not carry a password: dyno uses your SSH keys and agent, in batch mode')
  if (url.search || url.hash) throw invalid('must not have a query or a fragment')
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1')
  if (!hostname || /[^A-Za-z0-9._:%-]/.test(hostname)) throw invalid('needs a host name or address')
  // ssh would read a host that begins with `-` as an option (`-oProxyCommand…`); no host name or address begins so.
  if (hostname.startsWith('-')) throw invalid(`has a host \`${hostname}\` that begins with \`-\`, which ssh would take for an option`)
  const dir = decodeURIComponent(url.pathname)
  if (/[\0\n]/.test(dir)) throw invalid('has a directory with a control character')
  const user = url.username ? decodeURIComponent(url.username) : null
  if (user !== null && !/^[A-Za-z0-9._][A-Za-z0-9._-]*$/.test(user)) throw invalid(`has a user name \`${user}\` that is not a login name`)
  const port = url.port ? Number(url.port) : null
  const checkout = dir === '' || dir === '/' ? DEFAULT_HOST_DIR : dir.replace(/\/+$/, '')
  const address = hostname.includes(':') ? `[${hostname}]` : hostname
  return {
    kind: 'ssh',
    url: `ssh://${user ? `${user}@` : ''}${address}${port ? `:${port}` : ''}${checkout.startsWith('/') ? checkout : ''}`,
    user,
    hostname,
    port,
    dir: checkout
  }
}

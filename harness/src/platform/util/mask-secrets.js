// @ts-check
// Text that dyno writes (a result, a message) and did not write itself, a URL or another program's command line, may hold a secret.
// Masking is a list of forms, and a list always misses one: what is not dyno's to publish (another process's arguments) is not
// written at all unless asked for (`--census-args on`), and then masked as far as these forms go.

/** The names of arguments and query parameters whose value is a secret. */
const SECRET_NAMES = 'password|passwd|pass|pwd|secret|token|requirepass|auth|api[-_]?key|access[-_]?key'
/** In another program's arguments, more names hold a secret than in dyno's own messages (where `key` or `user` are plain words). */
const ARGUMENT_SECRET_NAMES = `${SECRET_NAMES}|passphrase|private[-_]?key|key|signature|credentials?|cookie|session|authorization`
/**
 * An argument whose next argument is a secret: `--password pw`, `sshpass -p pw`, `redis-cli -a pw`, `curl -u user:pw`, `curl -b
 * cookie`, `--cookie session=…`, or a label `password:` before its value.
 */
const SECRET_FLAG = new RegExp(
  `^(?:-[pauPb]|--[\\w-]*(?:${ARGUMENT_SECRET_NAMES}|user)|-(?:${ARGUMENT_SECRET_NAMES})|[\\w-]*(?:${ARGUMENT_SECRET_NAMES}):)$`, 'i')
/** The scheme of a credential in a header (`Authorization: Bearer …`): the credential is the argument after it. */
const CREDENTIAL_SCHEME = /^(?:Bearer|Basic|Token|Digest)$/i
/** A header or a label with its value in one argument: `Authorization: Bearer …`, `password: x`, `Cookie: session=…`. */
const SECRET_LABEL = new RegExp(`^(\\s*[\\w-]*(?:${ARGUMENT_SECRET_NAMES})\\s*:)\\s*\\S.*$`, 'is')
const SECRET_ASSIGNMENT = new RegExp(`([?&;\\s-]|^)((?:[A-Za-z0-9_.]*?)(?:${ARGUMENT_SECRET_NAMES}))(=|:)([^&\\s]+)`, 'gi')

/**
 * A URL's user information up to its last `@` (a password may hold one: `postgres://u:p@ss@h/db`): the password, or all of it when
 * `everything` (a token given as the user: `https://ghp_…@github.com`), as `***`.
 * @param {string} text @param {boolean} everything
 */
const maskUserinfo = (text, everything) => text.replace(/\/\/([^\s/?#]*)@/g, (whole, /** @type {string} */ userinfo) => {
  const colon = userinfo.indexOf(':')
  if (colon === -1) return everything ? '//***@' : whole
  return `//${userinfo.slice(0, colon)}:***@`
})

/**
 * Replaces the secrets a text may hold with `***`: the credentials of a URL (`//user:pw@`, `//:pw@`), a query parameter or an
 * argument named like a secret (`?password=…`, `--requirepass …`, `--token=…`, `PGPASSWORD=…`).
 * @param {string} text @returns {string}
 */
export function maskSecrets (text) {
  return maskUserinfo(text, false)
    .replace(new RegExp(`([?&;\\s-]|^)((?:[A-Za-z_]*?)(?:${SECRET_NAMES}))(=|\\s+)([^&\\s]+)`, 'gi'), '$1$2$3***')
}

/**
 * Another program's arguments as one line, each word masked: the word after a flag or label of a secret, a value attached to `-p`
 * (mysql's `-pSecret`), a header's or label's value, a URL's user information, a value assigned to a name of a secret
 * (`X-Amz-Signature=…`, `?key=…`, `--private-key=…`), a bearer or basic credential. Words, not arguments: a program may have put
 * several in one (a header `Authorization: Bearer …`, an argv[0] of `mysql -pSecret db`).
 * @param {string[]} argv @returns {string}
 */
export function maskArguments (argv) {
  const masked = []
  let secretNext = false
  for (const argument of argv.join(' ').split(/\s+/).filter(Boolean)) {
    if (secretNext) {
      masked.push(CREDENTIAL_SCHEME.test(argument) ? argument : '***')
      secretNext = CREDENTIAL_SCHEME.test(argument)
    } else if (SECRET_FLAG.test(argument)) {
      masked.push(argument)
      secretNext = true
    } else if (/^-p./.test(argument) && !argument.startsWith('--')) {
      masked.push('-p***')
    } else {
      masked.push(maskUserinfo(argument, true)
        .replace(SECRET_LABEL, '$1 ***')
        .replace(/\b(Bearer|Basic|Token|Digest)\s+\S+/gi, '$1 ***')
        .replace(/^(--?user=[^:\s]*):.+$/i, '$1:***')
        .replace(SECRET_ASSIGNMENT, '$1$2$3***'))
    }
  }
  return masked.join(' ')
}

/**
 * A URL as it may be written: its password, and every query parameter named like a secret, replaced with `***`, read with the
 * WHATWG URL parser (`redis://:pw@h`, `postgres://user:pw@h/db?password=…&sslpassword=…`). Text that is not a URL is masked as
 * any text is (maskSecrets).
 * @param {string} text @returns {string}
 */
export function maskUrl (text) {
  let url
  try {
    url = new URL(text)
  } catch {
    return maskSecrets(text)
  }
  if (url.password) url.password = '***'
  const secretName = new RegExp(`(?:${SECRET_NAMES})$`, 'i')
  for (const name of [...url.searchParams.keys()]) if (secretName.test(name)) url.searchParams.set(name, '***')
  return url.href.replace(/%2A%2A%2A/g, '***')
}

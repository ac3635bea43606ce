// @ts-check
// Text that dyno writes (a result, a message) and did not write itself, a URL or another program's command line, may hold a secret.

/** The names of arguments and query parameters whose value is a secret. */
const SECRET_NAMES = 'password|passwd|pass|pwd|secret|token|requirepass|auth|api[-_]?key|access[-_]?key'

/**
 * Replaces the secrets a text may hold with `***`: the credentials of a URL (`//user:pw@`, `//:pw@`), a query parameter or an
 * argument named like a secret (`?password=…`, `--requirepass …`, `--token=…`, `PGPASSWORD=…`).
 * @param {string} text @returns {string}
 */
export function maskSecrets (text) {
  return text
    .replace(/\/\/([^:@/\s]*):[^@/\s]*@/g, '//$1:***@')
    .replace(new RegExp(`([?&;\\s-]|^)((?:[A-Za-z_]*?)(?:${SECRET_NAMES}))(=|\\s+)([^&\\s]+)`, 'gi'), '$1$2$3***')
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

// @ts-check
// What certificate-files.js (on a host) and certificate-on-host.js (here) agree on: the name of a copy's directory, made of a nonce
// dyno draws before anything is written, and the reply, which says where the copies are. The reply reaches dyno as every script's
// does (platform/hosts/remote/script-reply.js), past whatever the host's login prints around it.

/** A copy's directory in the host's temporary directory is this and the nonce; `remove` takes no other. */
export const COPY_DIR_PREFIX = 'dyno-tls-'
/** A nonce: 16 random bytes in hex, drawn for each copy. */
export const NONCE = /^[0-9a-f]{32}$/

/**
 * The copies' paths in what `place` replied: null when the reply is not two paths.
 * @param {unknown} reply
 * @returns {{ certFile: string, keyFile: string | null } | null}
 */
export function copyPathsOf (reply) {
  if (typeof reply !== 'object' || reply === null) return null
  const { certFile, keyFile } = /** @type {Record<string, unknown>} */ (reply)
  if (typeof certFile !== 'string' || (keyFile !== null && typeof keyFile !== 'string')) return null
  return { certFile, keyFile }
}

// @ts-check
// The run's certificate where a process that needs it runs. A host that shares this machine's files reads the run's own files; a host
// of its own gets copies, written there by certificate-files.js from its standard input (the key goes only to the SUTs' host, the
// certificate alone to a load host, whose engine trusts it), in a directory only the run's user enters there, removed when the run
// ends. The key never reaches a command line, a result or a log.
//
// A copy's directory is named by a nonce drawn here before the copy is asked for, so its removal is known before anything is written:
// a copy that fails halfway (a login that printed something, a host gone while it answered) is removed at once, and the copies of
// several hosts are all removed when one of them fails.
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { DynoError, isDynoError } from '../../platform/errors.js'
import { runNodeScript } from '../../platform/hosts/run-node-script.js'
import { copyPathsOf } from './certificate-reply.js'

/** The script that writes and removes the copies on a host of its own. */
const ON_HOST_SCRIPT = 'harness/src/subjects/tls/certificate-files.js'
const LABEL = 'the run\'s certificate'

/**
 * @typedef {object} CertificateOnHost
 * @property {string} certFile the certificate's path on the host
 * @property {string | null} keyFile its key's path on the host; null where only the certificate was asked for
 * @property {() => Promise<void>} remove takes the copies away (nothing for a host that shares this machine's files); never fails
 */

/**
 * @param {{ certFile: string, keyFile?: string }} files on this machine: the certificate, and its key for the SUTs' host only
 * @param {import('../../platform/hosts/host.js').Host} host
 * @returns {Promise<CertificateOnHost>} the copy, or a DYNO_ERR_TLS_CERTIFICATE naming the host, once what it may have written is gone
 */
export async function certificateOnHost (files, host) {
  if (host.sharesFilesystem) return { certFile: files.certFile, keyFile: files.keyFile ?? null, remove: async () => {} }
  const pems = {
    certPem: readFileSync(files.certFile, 'utf8'),
    ...(files.keyFile ? { keyPem: readFileSync(files.keyFile, 'utf8') } : {})
  }
  const nonce = randomBytes(16).toString('hex')
  /** @type {Promise<void> | null} */
  let removal = null
  const remove = () => {
    removal ??= runNodeScript(host, ON_HOST_SCRIPT, ['remove', nonce], { label: LABEL }).then(() => {}, () => {})
    return removal
  }
  try {
    const placed = await runNodeScript(host, ON_HOST_SCRIPT, ['place', nonce], { label: LABEL, stdinText: JSON.stringify(pems) })
    if (placed.code !== 0) throw notPlaced(host, placed.lost ?? (placed.stderr.trim().split('\n').pop() || `exit code ${placed.code}`))
    const reply = placed.reply && copyPathsOf(placed.reply.value)
    if (!reply) throw notPlaced(host, 'its reply was not among the lines the host printed')
    return { ...reply, remove }
  } catch (error) {
    await remove()
    const ours = isDynoError(error) && error.code === 'DYNO_ERR_TLS_CERTIFICATE'
    throw ours ? error : notPlaced(host, error instanceof Error ? error.message : String(error), error)
  }
}

/**
 * The certificate on each of several hosts (the load hosts, whose engines trust it). When one host fails, the copies placed on the
 * others are removed too before its failure is thrown.
 * @param {{ certFile: string }} files @param {import('../../platform/hosts/host.js').Host[]} hosts
 * @returns {Promise<{ copies: CertificateOnHost[], remove: () => Promise<void> }>} copies: one per host, in their order; remove: all
 */
export async function certificateOnHosts (files, hosts) {
  const settled = await Promise.allSettled(hosts.map((host) => certificateOnHost(files, host)))
  const copies = settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []))
  const remove = async () => { await Promise.all(copies.map((copy) => copy.remove())) }
  const failed = settled.find((outcome) => outcome.status === 'rejected')
  if (failed) {
    await remove()
    throw failed.reason
  }
  return { copies, remove }
}

/** @param {import('../../platform/hosts/host.js').Host} host @param {string} why @param {unknown} [cause] */
const notPlaced = (host, why, cause) =>
  new DynoError('DYNO_ERR_TLS_CERTIFICATE', `the run's certificate could not be written on ${host.name}: ${why}`, { cause })

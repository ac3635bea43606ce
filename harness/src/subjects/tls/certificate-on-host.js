// @ts-check
// The run's certificate where a process that needs it runs. A host that shares this machine's files reads the run's own files; a host
// of its own gets copies, written there by certificate-files.js from its standard input (the key goes only to the SUTs' host, the
// certificate alone to a load host, whose engine trusts it), in a directory only the run's user enters there, removed when the run
// ends. The key never reaches a command line, a result or a log.
import { readFileSync } from 'node:fs'
import { DynoError } from '../../platform/errors.js'
import { runNodeScript } from '../../platform/hosts/run-node-script.js'

/** The script that writes and removes the copies on a host of its own. */
const ON_HOST_SCRIPT = 'harness/src/subjects/tls/certificate-files.js'

/**
 * @typedef {object} CertificateOnHost
 * @property {string} certFile the certificate's path on the host
 * @property {string | null} keyFile its key's path on the host; null where only the certificate was asked for
 * @property {() => Promise<void>} remove takes the copies away (nothing for a host that shares this machine's files)
 */

/**
 * @param {{ certFile: string, keyFile?: string }} files on this machine: the certificate, and its key for the SUTs' host only
 * @param {import('../../platform/hosts/host.js').Host} host
 * @returns {Promise<CertificateOnHost>}
 */
export async function certificateOnHost (files, host) {
  if (host.sharesFilesystem) return { certFile: files.certFile, keyFile: files.keyFile ?? null, remove: async () => {} }
  const pems = {
    certPem: readFileSync(files.certFile, 'utf8'),
    ...(files.keyFile ? { keyPem: readFileSync(files.keyFile, 'utf8') } : {})
  }
  const placed = await runNodeScript(host, ON_HOST_SCRIPT, ['place'], {
    label: 'the run\'s certificate',
    stdinText: JSON.stringify(pems)
  })
  if (placed.code !== 0) {
    throw new DynoError('DYNO_ERR_TLS_CERTIFICATE', `the run's certificate could not be written on ${host.name}: ` +
      `${placed.lost ?? (placed.stderr.trim().split('\n').pop() || `exit code ${placed.code}`)}`)
  }
  const { dir, certFile, keyFile } = JSON.parse(placed.stdout)
  return {
    certFile,
    keyFile,
    remove: async () => {
      await runNodeScript(host, ON_HOST_SCRIPT, ['remove', dir], { label: 'the run\'s certificate' }).catch(() => {})
    }
  }
}

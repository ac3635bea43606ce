// @ts-check
// The certificate of a run: made once per run for the SUTs that serve TLS (tls-json, h2-json), self-signed for `localhost` and
// 127.0.0.1, in a directory only the run's user can enter, and removed at the end. The key never leaves that directory: a SUT gets
// the paths (TLS_CERT_FILE, TLS_KEY_FILE), verification trusts the certificate itself; no result, run.json or command line holds it.
//
// How it is made: with `openssl` when it is on PATH (it is on every Linux dyno runs on, and what TLS stacks are tested against), the key
// written by openssl straight into a file that was made 0600 first; otherwise with the `selfsigned` package (its keys and signature come
// from Node's own WebCrypto, no native code), so that a machine without openssl (a minimal container, Windows) still runs the TLS
// scenarios. The certificate is made on the machine that runs dyno; a SUT on another host gets the files there with the run.
// The key is ECDSA P-256, what most servers present today: a handshake costs the SUT a P-256 signature, not an RSA-2048 one.
import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { DynoError } from '../../platform/errors.js'
import { findExecutable } from '../../platform/util/find-executable.js'

const execFileAsync = promisify(execFile)
const require = createRequire(import.meta.url)

/** The name a client asks for (SNI) and checks the certificate against; the certificate also holds 127.0.0.1 and ::1. */
export const SERVER_NAME = 'localhost'

/** Long enough for any run; a certificate is never reused by another run. */
const VALIDITY_DAYS = 7

/**
 * @typedef {object} RunCertificate
 * @property {string} certFile PEM of the certificate (TLS_CERT_FILE of a SUT)
 * @property {string} keyFile PEM of its private key, mode 0600 in a directory of mode 0700 (TLS_KEY_FILE of a SUT)
 * @property {string} caFile what a client trusts to verify the SUT: the certificate itself, as it signs itself
 * @property {string} serverName the name a client sends (SNI) and checks
 * @property {string} madeBy `openssl <version>` or `selfsigned <version>`
 * @property {() => void} dispose removes the directory with both files (also done when the process exits, should nobody call it)
 */

/**
 * Makes the run's certificate.
 * @param {{ maker?: 'auto' | 'openssl' | 'library', env?: NodeJS.ProcessEnv }} [options] maker: `auto` (openssl when on PATH, else the
 *   library); the others force one, for tests
 * @returns {Promise<RunCertificate>}
 * @throws {DynoError} DYNO_ERR_TLS_CERTIFICATE when neither can make it
 */
export async function makeRunCertificate ({ maker = 'auto', env = process.env } = {}) {
  const openssl = maker === 'library' ? null : findExecutable('openssl', [], env)
  if (maker === 'openssl' && !openssl) throw new DynoError('DYNO_ERR_TLS_CERTIFICATE', 'openssl is not on PATH')
  // mkdtemp makes the directory 0700: nobody else can reach the key, whatever mode a tool gives it.
  const dir = mkdtempSync(join(tmpdir(), 'dyno-tls-'))
  const certFile = join(dir, 'cert.pem')
  const keyFile = join(dir, 'key.pem')
  const dispose = () => {
    process.off('exit', dispose)
    rmSync(dir, { recursive: true, force: true })
  }
  process.on('exit', dispose)
  try {
    writeFileSync(keyFile, '', { mode: 0o600 })
    const madeBy = openssl ? await withOpenssl(openssl, { certFile, keyFile }) : await withLibrary({ certFile, keyFile })
    chmodSync(keyFile, 0o600)
    return { certFile, keyFile, caFile: certFile, serverName: SERVER_NAME, madeBy, dispose }
  } catch (error) {
    dispose()
    if (error instanceof DynoError) throw error
    throw new DynoError('DYNO_ERR_TLS_CERTIFICATE', `the run's certificate could not be made${openssl ? ` with ${openssl}` : ''}: ` +
      `${/** @type {Error} */ (error).message}`, { cause: error })
  }
}

/** @param {string} openssl @param {{ certFile: string, keyFile: string }} files @returns {Promise<string>} */
async function withOpenssl (openssl, { certFile, keyFile }) {
  await execFileAsync(openssl, [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-sha256', '-days', String(VALIDITY_DAYS),
    '-subj', `/CN=${SERVER_NAME}`, '-addext', `subjectAltName=DNS:${SERVER_NAME},IP:127.0.0.1,IP:::1`,
    '-keyout', keyFile, '-out', certFile
  ], { timeout: 30_000 })
  const { stdout } = await execFileAsync(openssl, ['version'])
  return stdout.trim().split(' ').slice(0, 2).join(' ')
}

/** @param {{ certFile: string, keyFile: string }} files @returns {Promise<string>} */
async function withLibrary ({ certFile, keyFile }) {
  /** @type {typeof import('selfsigned')} */
  const selfsigned = require('selfsigned')
  const notBeforeDate = new Date()
  const notAfterDate = new Date(notBeforeDate.getTime() + VALIDITY_DAYS * 24 * 3600 * 1000)
  const pems = await selfsigned.generate([{ name: 'commonName', value: SERVER_NAME }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: SERVER_NAME }, { type: 7, ip: '127.0.0.1' }, { type: 7, ip: '::1' }] }
    ]
  })
  writeFileSync(keyFile, pems.private, { mode: 0o600 })
  writeFileSync(certFile, pems.cert)
  return `selfsigned ${require('selfsigned/package.json').version}`
}

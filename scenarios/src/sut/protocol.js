// @ts-check
// What a SUT's start learns from the harness about the protocol it serves: PROTOCOL, and for TLS the run's certificate
// (TLS_CERT_FILE, TLS_KEY_FILE), read once and checked once, with errors that name the variable.
import { readFileSync } from 'node:fs'
import { createSecureContext } from 'node:tls'
import { PROTOCOLS, SERVED_PROTOCOLS } from '../contract/protocols.js'

/**
 * @typedef {import('../contract/protocols.js').ServedProtocol} ServedProtocol
 * @typedef {{ key: Buffer, cert: Buffer, minVersion: 'TLSv1.3', ALPNProtocols?: string[] }} TlsOptions what node:tls, node:https and
 *   node:http2 servers take (and Bun's and Deno's, which read `key` and `cert`)
 */

/**
 * Reads PROTOCOL: what the SUT serves on its port (`http1`, the default when it is absent or empty, `tls`, `h2`, `h2c`).
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {ServedProtocol}
 */
export function requestedProtocol (env = process.env) {
  const raw = env.PROTOCOL || 'http1'
  const protocol = SERVED_PROTOCOLS.find((served) => served === raw)
  if (!protocol) throw new RangeError(`PROTOCOL must be one of ${SERVED_PROTOCOLS.join(', ')}, got ${JSON.stringify(raw)}`)
  return protocol
}

/** @param {ServedProtocol} protocol */
const needsTls = (protocol) => Object.values(PROTOCOLS).some((entry) => entry.serves === protocol && entry.tls)

/**
 * The PEM files of the run's certificate: TLS_CERT_FILE and TLS_KEY_FILE (for a SUT that reads the files itself, as uWS does).
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {{ certFile: string, keyFile: string }}
 */
export function tlsFiles (env = process.env) {
  const named = (/** @type {string} */ variable, /** @type {string} */ what) => {
    const value = env[variable]
    if (!value) {
      throw new Error(`${variable} must name the PEM file of the ${what} (PROTOCOL=${env.PROTOCOL} serves TLS), but it is not set`)
    }
    return value
  }
  return { certFile: named('TLS_CERT_FILE', 'certificate'), keyFile: named('TLS_KEY_FILE', 'private key') }
}

/** @type {{ files: string, options: TlsOptions } | null} */
let loaded = null

/**
 * The TLS options of the server: the run's certificate and key (read once), TLS 1.3 at least, and ALPN `h2` when PROTOCOL is h2.
 * Throws, naming the variables, when a file cannot be read or the two do not make a certificate node:tls can serve.
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {TlsOptions}
 */
export function tlsOptions (env = process.env) {
  const { certFile, keyFile } = tlsFiles(env)
  const protocol = requestedProtocol(env)
  const files = `${certFile}\n${keyFile}\n${protocol}`
  if (loaded?.files === files) return loaded.options
  const read = (/** @type {string} */ variable, /** @type {string} */ file) => {
    try {
      return readFileSync(file)
    } catch (error) {
      throw new Error(`cannot read ${variable}=${file}: ${/** @type {Error} */ (error).message}`)
    }
  }
  /** @type {TlsOptions} */
  const options = { key: read('TLS_KEY_FILE', keyFile), cert: read('TLS_CERT_FILE', certFile), minVersion: 'TLSv1.3' }
  try {
    createSecureContext(options)
  } catch (error) {
    throw new Error(
      `cannot load the certificate TLS_CERT_FILE=${certFile} with the key TLS_KEY_FILE=${keyFile}: ${/** @type {Error} */ (error).message}`
    )
  }
  if (protocol === 'h2') options.ALPNProtocols = ['h2']
  loaded = { files, options }
  return options
}

/** The protocol the ready line announces: the one `serveProtocol` accepted, else HTTP/1.1 (a start that never asked serves it). */
let announced = /** @type {ServedProtocol} */ ('http1')

/** @returns {ServedProtocol} */
export const announcedProtocol = () => announced

/**
 * The protocol this SUT's start is to serve, from PROTOCOL, and its TLS options when it serves TLS; the ready line will announce it.
 * A protocol the start does not serve, or a certificate it cannot load, ends the start (exit 1) with one line on stderr that names
 * the variable: the harness shows a SUT's last stderr lines when it exits before it is ready. SUT start files only.
 * @param {readonly ServedProtocol[]} served what this start serves; the SUT's package.json declares why it does not serve the others
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {{ protocol: ServedProtocol, tls: TlsOptions | null }}
 */
export function serveProtocol (served, env = process.env) {
  try {
    const protocol = requestedProtocol(env)
    if (!served.includes(protocol)) {
      throw new Error(`PROTOCOL=${protocol} is not served by this SUT, which serves ${served.join(', ')} ` +
        '(its package.json says why in dyno.unsupportedScenarios)')
    }
    const tls = needsTls(protocol) ? tlsOptions(env) : null
    announced = protocol
    return { protocol, tls }
  } catch (error) {
    process.stderr.write(`${/** @type {Error} */ (error).message}\n`)
    process.exit(1)
  }
}

// @ts-check
// The certificate of a run, made with openssl and, without it, with the selfsigned package: a certificate a TLS server loads and a client
// verifies for localhost and 127.0.0.1, its key in a file only the run's user reads, in a directory only it enters, both gone once
// disposed, and nothing of the key in what the run keeps of the certificate.
import { existsSync, readFileSync, statSync } from 'node:fs'
import { once } from 'node:events'
import { dirname } from 'node:path'
import tls from 'node:tls'
import { afterAll, describe, expect, it } from 'vitest'
import { makeRunCertificate } from '../../src/subjects/tls/run-certificate.js'
import { skipUnless } from '../support/needs.js'

/** @type {(() => void)[]} */
const disposals = []
afterAll(() => { for (const dispose of disposals) dispose() })

/**
 * A TLS 1.3 server on the certificate, and a client that trusts only `caFile`: the name the client verified and the protocol.
 * @param {import('../../src/subjects/tls/run-certificate.js').RunCertificate} certificate
 * @param {{ host: string, servername?: string }} target
 */
async function handshake (certificate, { host, servername }) {
  const server = tls.createServer(
    { cert: readFileSync(certificate.certFile), key: readFileSync(certificate.keyFile), minVersion: 'TLSv1.3' },
    (socket) => socket.end('hello')
  )
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  try {
    const address = /** @type {import('node:net').AddressInfo} */ (server.address())
    const socket = tls.connect({ host, port: address.port, ca: readFileSync(certificate.caFile), ...(servername ? { servername } : {}) })
    await once(socket, 'secureConnect')
    const version = socket.getProtocol()
    socket.destroy()
    return { authorized: socket.authorized, version }
  } finally {
    server.close()
  }
}

describe.for(/** @type {const} */ (['openssl', 'library']))('made with %s', (maker) => {
  it('is served over TLS 1.3 and verified for localhost and for 127.0.0.1 against its own certificate', async (context) => {
    if (maker === 'openssl') skipUnless(context, 'openssl')
    const certificate = await makeRunCertificate({ maker })
    disposals.push(certificate.dispose)
    expect(certificate.madeBy).toMatch(maker === 'openssl' ? /^OpenSSL \d/ : /^selfsigned \d/)
    expect(certificate.serverName).toBe('localhost')
    expect(await handshake(certificate, { host: '127.0.0.1', servername: certificate.serverName })).toEqual({
      authorized: true,
      version: 'TLSv1.3'
    })
    expect(await handshake(certificate, { host: '127.0.0.1' })).toEqual({ authorized: true, version: 'TLSv1.3' })
    expect(readFileSync(certificate.keyFile, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----\n/)
  })

  it('keeps its key to the run\'s user, keeps no key in what the run holds of it, and is gone once disposed', async (context) => {
    if (maker === 'openssl') skipUnless(context, 'openssl')
    const certificate = await makeRunCertificate({ maker })
    disposals.push(certificate.dispose)
    const dir = dirname(certificate.keyFile)
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    expect(statSync(certificate.keyFile).mode & 0o777).toBe(0o600)
    expect(dirname(certificate.certFile)).toBe(dir)
    const key = readFileSync(certificate.keyFile, 'utf8').split('\n').slice(1, -2).join('')
    expect(JSON.stringify(certificate)).not.toContain(key.slice(0, 32))
    certificate.dispose()
    expect(existsSync(dir)).toBe(false)
    certificate.dispose()
  })
})

it('makes a certificate of its own for every run', async () => {
  const [first, second] = await Promise.all([makeRunCertificate(), makeRunCertificate()])
  disposals.push(first.dispose, second.dispose)
  expect(first.certFile).not.toBe(second.certFile)
  expect(readFileSync(first.certFile, 'utf8')).not.toBe(readFileSync(second.certFile, 'utf8'))
})

// @ts-check
// PROTOCOL and the run's certificate as a SUT's start reads them through startServer: the protocol served and announced, a protocol the
// SUT does not serve and a certificate it cannot load each ending the start with one line that names the variable.
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import https from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const SUT_MODULE = new URL('../src/sut/index.js', import.meta.url).href

/** A start that serves HTTP/1.1 and, through node:https, TLS; not h2 or h2c. */
const START_FILE = `
import http from 'node:http'
import https from 'node:https'
import { startServer } from ${JSON.stringify(SUT_MODULE)}
const answer = (req, res) => res.end(req.socket.encrypted ? req.socket.getProtocol() : 'cleartext')
await startServer(() => http.createServer(answer), { tls: ({ tls }) => https.createServer(tls, answer) })
`

const BARE_ENV = Object.fromEntries(Object.entries(process.env)
  .filter(([name]) => !['REDIS_URL', 'SQLITE_PATH', 'DATABASE_URL', 'PROTOCOL', 'TLS_CERT_FILE', 'TLS_KEY_FILE'].includes(name)))

/** The test makes its certificate with openssl, as dyno does where it is installed. */
const hasOpenssl = spawnSync('openssl', ['version']).status === 0

/** @type {string} */
let dir
/** @type {{ certFile: string, keyFile: string, badKeyFile: string }} */
let files

beforeAll(() => {
  if (!hasOpenssl) return
  dir = mkdtempSync(join(tmpdir(), 'dyno-sut-tls-test-'))
  files = { certFile: join(dir, 'cert.pem'), keyFile: join(dir, 'key.pem'), badKeyFile: join(dir, 'not-a-key.pem') }
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost',
      '-keyout',
      files.keyFile,
      '-out',
      files.certFile
    ],
    { stdio: 'ignore' }
  )
  writeFileSync(files.badKeyFile, '-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n')
})

afterAll(() => { if (dir) rmSync(dir, { recursive: true, force: true }) })

/** @param {Record<string, string>} env */
async function start (env) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', START_FILE], {
    env: { ...BARE_ENV, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe']
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => { stdout += chunk })
  child.stderr.on('data', (chunk) => { stderr += chunk })
  const exited = /** @type {Promise<[number | null, string | null]>} */ (once(child, 'exit'))
  return { child, exited, stdout: () => stdout, stderr: () => stderr }
}

describe.skipIf(!hasOpenssl)('startServer and PROTOCOL (needs openssl)', () => {
  it('serves TLS 1.3 with the certificate of TLS_CERT_FILE and TLS_KEY_FILE, and announces tls', async () => {
    const started = await start({ PROTOCOL: 'tls', TLS_CERT_FILE: files.certFile, TLS_KEY_FILE: files.keyFile })
    try {
      await once(started.child.stdout, 'data')
      const ready = JSON.parse(started.stdout())
      expect(ready).toEqual({ event: 'ready', port: expect.any(Number), protocol: 'tls' })
      const body = await new Promise((resolve, reject) => {
        https.get({ host: '127.0.0.1', port: ready.port, servername: 'localhost', ca: readFileSync(files.certFile) }, (res) => {
          let text = ''
          res.on('data', (chunk) => { text += chunk })
          res.on('end', () => resolve(text))
        }).on('error', reject)
      })
      expect(body).toBe('TLSv1.3')
    } finally {
      started.child.kill('SIGTERM')
      await started.exited
    }
  }, 15_000)

  it('ends the start (exit 1, no ready line) with a line naming what it was asked and what it serves', async () => {
    const cases = [
      [
        { PROTOCOL: 'h2', TLS_CERT_FILE: files.certFile, TLS_KEY_FILE: files.keyFile },
        'PROTOCOL=h2 is not served by this SUT, which serves http1, tls'
      ],
      [{ PROTOCOL: 'http3' }, 'PROTOCOL must be one of http1, tls, h2, h2c, got "http3"'],
      [{ PROTOCOL: 'tls', TLS_KEY_FILE: files.keyFile }, 'TLS_CERT_FILE must name the PEM file of the certificate'],
      [
        { PROTOCOL: 'tls', TLS_CERT_FILE: files.certFile, TLS_KEY_FILE: join(dir, 'missing.pem') },
        `cannot read TLS_KEY_FILE=${join(dir, 'missing.pem')}`
      ],
      [
        { PROTOCOL: 'tls', TLS_CERT_FILE: files.certFile, TLS_KEY_FILE: files.badKeyFile },
        `cannot load the certificate TLS_CERT_FILE=${files.certFile} with the key TLS_KEY_FILE=${files.badKeyFile}`
      ]
    ]
    for (const [env, message] of /** @type {[Record<string, string>, string][]} */ (cases)) {
      const started = await start(env)
      expect(await started.exited).toEqual([1, null])
      expect(started.stderr()).toContain(message)
      expect(started.stderr().trim().split('\n')).toHaveLength(1)
      expect(started.stdout()).toBe('')
    }
  }, 30_000)
})

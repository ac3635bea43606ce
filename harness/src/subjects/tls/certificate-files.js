#!/usr/bin/env node
// @ts-check
// Run by dyno on a host of its own (certificate-on-host.js). `place NONCE` reads the run's certificate (and, for a SUT's host, its key)
// as JSON on its standard input, never on a command line, writes them into the directory the nonce names, made here for them and
// entered by this user only (the key's file mode 0600), and replies where (script-reply.js: whatever else the host's login prints is
// not the reply). `remove NONCE` takes that directory away; dyno asks for it whether or not `place` got as far as making it, so the
// nonce is the directory's whole name and known before anything is written.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeReply } from '../../platform/hosts/remote/script-reply.js'
import { COPY_DIR_PREFIX, NONCE } from './certificate-reply.js'

const [, , action, nonce] = process.argv
if (!nonce || !NONCE.test(nonce) || (action !== 'place' && action !== 'remove')) {
  process.stderr.write(`certificate-files: place NONCE | remove NONCE (32 hex digits), got ${process.argv.slice(2).join(' ')}\n`)
  process.exitCode = 2
} else if (action === 'remove') {
  rmSync(join(tmpdir(), `${COPY_DIR_PREFIX}${nonce}`), { recursive: true, force: true })
} else {
  const { certPem, keyPem } = JSON.parse(readFileSync(0, 'utf8'))
  if (typeof certPem !== 'string' || (keyPem !== undefined && typeof keyPem !== 'string')) {
    process.stderr.write('certificate-files place: standard input must be { "certPem": string, "keyPem"?: string }\n')
    process.exitCode = 2
  } else {
    // mkdir, not mkdtemp: the name is the nonce dyno holds. It fails on anything already there (a link planted under that name too).
    const dir = join(tmpdir(), `${COPY_DIR_PREFIX}${nonce}`)
    mkdirSync(dir, { mode: 0o700 })
    const certFile = join(dir, 'cert.pem')
    writeFileSync(certFile, certPem)
    const keyFile = keyPem === undefined ? null : join(dir, 'key.pem')
    if (keyFile) writeFileSync(keyFile, keyPem, { mode: 0o600 })
    writeReply({ certFile, keyFile })
  }
}

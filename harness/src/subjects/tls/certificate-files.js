#!/usr/bin/env node
// @ts-check
// Run by dyno on a host of its own (certificate-on-host.js): `place` reads the run's certificate (and, for a SUT's host, its key) as
// JSON on its standard input, never on a command line, writes them into a new directory only this user can enter (the key's file
// mode 0600) and prints where; `remove DIR` takes such a directory away.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'

/** What a directory this script made is called: `remove` takes no other. */
const PREFIX = 'dyno-tls-'

const [, , action, target] = process.argv
if (action === 'place') {
  const { certPem, keyPem } = JSON.parse(readFileSync(0, 'utf8'))
  if (typeof certPem !== 'string' || (keyPem !== undefined && typeof keyPem !== 'string')) {
    process.stderr.write('certificate-files place: standard input must be { "certPem": string, "keyPem"?: string }\n')
    process.exitCode = 2
  } else {
    // mkdtemp makes the directory 0700.
    const dir = mkdtempSync(join(tmpdir(), PREFIX))
    const certFile = join(dir, 'cert.pem')
    writeFileSync(certFile, certPem)
    const keyFile = keyPem === undefined ? null : join(dir, 'key.pem')
    if (keyFile) writeFileSync(keyFile, keyPem, { mode: 0o600 })
    process.stdout.write(`${JSON.stringify({ dir, certFile, keyFile })}\n`)
  }
} else if (action === 'remove' && target && basename(target).startsWith(PREFIX)) {
  rmSync(target, { recursive: true, force: true })
} else {
  process.stderr.write(`certificate-files: place | remove DIR (a ${PREFIX} directory), got ${process.argv.slice(2).join(' ')}\n`)
  process.exitCode = 2
}

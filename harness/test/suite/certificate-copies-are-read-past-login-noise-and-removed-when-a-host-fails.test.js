// @ts-check
// A host of its own gets copies of the run's certificate (and, for the SUTs' host, its key), written there by dyno's script over the
// host's login. What a login prints (a banner, an `echo` in .bashrc) is not the copy's reply: the reply is the one line that starts
// with the marker and the nonce of its call (runNodeScript's). And no copy outlives a failure: a copy whose reply is lost is removed
// at once, and when one of several load hosts fails, the copies placed on the others are removed too before the failure, naming its
// host, is thrown.
// The hosts are this machine, as the test kind `apart://` makes it (files of its own), each behind a login shell of the test's
// making that prints what it likes and gives the copies a temporary directory of their own.
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { certificateOnHost, certificateOnHosts } from '../../src/subjects/tls/certificate-on-host.js'
import { makeRunCertificate } from '../../src/subjects/tls/run-certificate.js'
import { hostBehindLogin } from '../support/apart-host/behind-login.js'
import { trackRuns } from '../support/leftover-processes.js'

const runs = trackRuns()
const runId = runs.add(`certificate-copies-${randomUUID()}`)
const work = mkdtempSync(join(tmpdir(), 'dyno-certificate-copies-'))
const certificate = await makeRunCertificate()
afterAll(() => {
  certificate.dispose()
  rmSync(work, { recursive: true, force: true })
})

/** Every command line a login was given, to check that no key is on one. @type {string[][]} */
const commandLines = []

/** @param {string} name @param {string} login @returns {ReturnType<typeof hostBehindLogin>} */
const hostBehind = (name, login) => hostBehindLogin({ name, login, work, runId, commandLines })

/** The copies' directories left in a host's temporary directory. @param {string} tmp */
const copiesIn = (tmp) => readdirSync(tmp).filter((entry) => entry.startsWith('dyno-tls-'))

describe('the run\'s certificate copied to hosts of their own', () => {
  it('is read from its reply\'s line whatever the login prints around it, and removed when asked', async () => {
    const { host, tmp } = await hostBehind('noisy', 'echo "Welcome to the lab"; printf "{not json"; "$@"; echo "logged out"')
    const copy = await certificateOnHost({ certFile: certificate.certFile, keyFile: certificate.keyFile }, host)
    expect(copiesIn(tmp)).toHaveLength(1)
    expect(copy.certFile.startsWith(join(tmp, 'dyno-tls-'))).toBe(true)
    expect(readFileSync(copy.certFile, 'utf8')).toBe(readFileSync(certificate.certFile, 'utf8'))
    expect(readFileSync(/** @type {string} */ (copy.keyFile), 'utf8')).toBe(readFileSync(certificate.keyFile, 'utf8'))
    expect(statSync(/** @type {string} */ (copy.keyFile)).mode & 0o777).toBe(0o600)
    await copy.remove()
    expect(copiesIn(tmp)).toEqual([])
  })

  it('leaves no copy on any host when one of them fails, and names the host that failed', async () => {
    const placed = await hostBehind('placed', 'echo "motd"; "$@"')
    // Its copy is written, then its reply is lost: the copy may be there, and must go with the others.
    const lost = await hostBehind('lost', '"$@" >/dev/null')
    const failure = await certificateOnHosts({ certFile: certificate.certFile }, [placed.host, lost.host]).then(
      () => null,
      (/** @type {import('../../src/platform/errors.js').DynoError} */ error) => error
    )
    expect(copiesIn(placed.tmp)).toEqual([])
    expect(copiesIn(lost.tmp)).toEqual([])
    expect(failure?.code).toBe('DYNO_ERR_TLS_CERTIFICATE')
    expect(failure?.message).toMatch(/could not be written on apart:\/\/lost: its reply was not among the lines the host printed/)
  })

  it('writes no key on any command line', () => {
    const keyPem = readFileSync(certificate.keyFile, 'utf8')
    const keyBody = keyPem.split('\n')[1]
    expect(commandLines.length).toBeGreaterThan(0)
    for (const argv of commandLines) expect(argv.join(' ')).not.toContain(keyBody)
  })

  afterAll(() => runs.expectNoneLeft(expect))
})

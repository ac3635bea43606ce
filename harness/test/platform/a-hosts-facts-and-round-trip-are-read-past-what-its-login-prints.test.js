// @ts-check
// What dyno asks a host over SSH before anything runs there (its facts: fingerprint, checkout, tools, free ports) and the round trip
// from a load host to the SUT come back on the same stdout as the host's login prints its banner, motd and .bashrc's echoes, before
// and after the command and without a newline, JSON among them. The answer is the script's reply, the line marked with its call's
// nonce; a reply marked for another call is not taken, and a login that swallows the reply is a named failure. SSH is a stand-in
// here that runs the command on this machine behind such a login (what the real one does is the e2e journey over SSH).
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../../src/platform/paths.js'
import { REPLY_MARKER } from '../../src/platform/hosts/remote/script-reply.js'
import { hostFacts, measureRttOverSsh } from '../../src/platform/hosts/ssh/ssh-host.js'

const work = mkdtempSync(join(tmpdir(), 'dyno-ssh-login-'))
const savedPath = process.env.PATH
/** A reply of another call: the marker, a nonce that is not this call's, a value. */
const FORGED = `${REPLY_MARKER}${'0'.repeat(32)} {"hostname":"forged","medianUs":1}`

/**
 * A stand-in for ssh: its last argument is the remote command, run by sh behind a login that prints around it, as LOGIN says.
 * noisy: a banner, JSON lines and another call's reply before it, JSON and an unended line after; swallowing: everything the
 * command prints is dropped.
 */
function standInSsh () {
  const forged = FORGED.replaceAll('\u001e', '\\036')
  writeFileSync(join(work, 'ssh'), [
    '#!/bin/sh',
    'for last; do :; done',
    'if [ "$LOGIN" = swallowing ]; then sh -c "$last" > /dev/null; exit $?; fi',
    `printf 'Welcome to the lab\\n{"hostname":"banner"}\\n${forged}\\nlast login: '`,
    'sh -c "$last"',
    'code=$?',
    'echo \'{"hostname":"logout"}\'',
    "printf 'logged out'",
    'exit $code'
  ].join('\n'))
  chmodSync(join(work, 'ssh'), 0o755)
}

/** @type {import('../../src/platform/hosts/ssh/ssh-url.js').SshTarget} */
const TARGET = { kind: /** @type {const} */ ('ssh'), url: 'ssh://lab', hostname: 'lab', dir: REPO_ROOT, port: null, user: null }

beforeAll(() => {
  standInSsh()
  process.env.PATH = `${work}:${savedPath}`
})
afterAll(() => {
  process.env.PATH = savedPath
  delete process.env.LOGIN
  rmSync(work, { recursive: true, force: true })
})

describe("a host's login that prints around dyno's commands", () => {
  it("leaves the host's facts and free ports as its checkout replied them", async () => {
    process.env.LOGIN = 'noisy'
    const facts = await hostFacts(TARGET, { ports: 2 })
    expect(facts.hostname).not.toBe('forged')
    expect(facts.hostname).not.toBe('banner')
    expect(facts.checkout.dir).toBe(REPO_ROOT)
    expect(facts.ports).toHaveLength(2)
    expect(facts.nodePath).toBe(process.execPath)
  })

  it('leaves the round trip to a server as the host measured it', async () => {
    process.env.LOGIN = 'noisy'
    const server = createServer((socket) => socket.end())
    await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)))
    try {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address())
      const rtt = await measureRttOverSsh(TARGET, process.execPath, { address: '127.0.0.1', port, to: 'sut', method: 'tcp' })
      expect(rtt.medianUs).toBeGreaterThan(0)
      expect(rtt.maxUs).toBeGreaterThanOrEqual(rtt.medianUs)
    } finally {
      server.close()
    }
  })

  it('that swallows the reply is told as a host without a usable checkout, not a crash', async () => {
    process.env.LOGIN = 'swallowing'
    await expect(hostFacts(TARGET)).rejects.toMatchObject({
      code: 'DYNO_ERR_HOST_NOT_PREPARED',
      message: expect.stringContaining('it answered no facts')
    })
    await expect(measureRttOverSsh(TARGET, process.execPath, { address: '127.0.0.1', port: 9, to: 'sut', method: 'tcp' }))
      .rejects.toMatchObject({ code: 'DYNO_ERR_HOST_LOST' })
  })
})

// @ts-check
// dyno's scripts on a host of its own (the SQLite file, the PostgreSQL cluster, a count, the certificate's copies) answer through
// runNodeScript, on the same stdout the host's login prints its banner, motd and .bashrc's echoes on, before and after the script and
// without a newline. Whatever the login prints, the answer is the script's reply, the one line marked with its call's nonce: a reply
// marked for another call is not taken, a login that swallows the reply leaves the call without one (a named failure, not a crash),
// and a login line of megabytes is dropped as it comes. The hosts are this machine, as the test kind `apart://` makes it (files of
// its own), behind a login shell of the test's making.
import { randomUUID } from 'node:crypto'
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { REPLY_MARKER } from '../../src/platform/hosts/remote/script-reply.js'
import { runNodeScript } from '../../src/platform/hosts/run-node-script.js'
import { encodeCountSpec } from '../../src/measures/instructions/counts/count-on-host.js'
import { findPostgresBinaries, providePostgres } from '../../src/subjects/services/postgres-service.js'
import { provideSqlite } from '../../src/subjects/services/sqlite-service.js'
import { hostBehindLogin } from '../support/apart-host/behind-login.js'
import { trackRuns } from '../support/leftover-processes.js'

const runs = trackRuns()
const runId = runs.add(`login-noise-${randomUUID()}`)
const mark = { DYNO_RUN_ID: runId }
const work = mkdtempSync(join(tmpdir(), 'dyno-login-noise-'))
// PostgreSQL's server runs as its own user when dyno is root: it must reach the cluster's directory under the host's.
chmodSync(work, 0o755)
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** A reply line as a script of another call would write it: the marker, a nonce that is not this call's, a value. */
const OTHER_CALLS_REPLY = `${REPLY_MARKER}${'0'.repeat(32)} {"dir":"/","path":"/etc/passwd","version":"forged"}`
/** A login that prints before and after the command, a line of it unfinished, JSON among it, and keeps the command's exit code. */
const NOISY = 'printf \'Welcome to the lab\\n{"dir":"/etc"}\\n%s\\nlast login: \'; "$@"; code=$?; echo \'{"dir":"/root"}\'; ' +
  'printf \'logged out\'; exit $code'

/** @param {string} name @param {string} login @returns {ReturnType<typeof hostBehindLogin>} */
const hostBehind = async (name, login) => {
  const behind = await hostBehindLogin({
    name,
    login: login.replace('%s', OTHER_CALLS_REPLY.replaceAll('\u001e', '\\036')),
    work,
    runId,
    role: 'sut'
  })
  chmodSync(behind.tmp, 0o755)
  return behind
}

const postgresAbsent = findPostgresBinaries(process.env) ? null : 'no PostgreSQL binaries (initdb, postgres)'

describe('a script on a host of its own', () => {
  it('makes, checks and removes the SQLite database there, whatever the login prints around it', async () => {
    const { host, tmp } = await hostBehind('sqlite', NOISY)
    const sqlite = await provideSqlite(process.env, mark, host)
    const path = sqlite.env.SQLITE_PATH
    expect(path.startsWith(join(tmp, 'dyno-sqlite-'))).toBe(true)
    expect(existsSync(path)).toBe(true)
    expect(sqlite.description.version).toMatch(/^3\.\d+\.\d+$/)
    expect(await sqlite.healthy()).toBe(true)
    await sqlite.stop()
    expect(existsSync(path)).toBe(false)
  })

  const skipped = postgresAbsent ? ` (skipped: ${postgresAbsent})` : ''
  it.skipIf(postgresAbsent)(`makes the PostgreSQL cluster there, whatever the login prints around it${skipped}`, async () => {
    const { host } = await hostBehind('postgres', NOISY)
    const postgres = await providePostgres({ ...process.env, DATABASE_URL: '' }, mark, host)
    try {
      expect(await postgres.healthy()).toBe(true)
      expect(postgres.description.source).toBe('managed')
    } finally {
      await postgres.stop()
    }
  }, 60_000)

  it('hands back a count\'s refusal with its exit code, past the login\'s noise', async () => {
    const { host } = await hostBehind('count', NOISY)
    const spec = encodeCountSpec({
      sut: 'node-http',
      scenario: 'no-such-scenario',
      env: {},
      warmupRequests: 1,
      windowRequests: 1,
      windows: 1,
      concurrency: 1,
      readyTimeoutSec: 5
    })
    const answered = await runNodeScript(host, 'harness/src/measures/instructions/counts/count-on-host.js', [],
      { label: 'a count', env: mark, stdinText: `${spec}\n` })
    expect(answered.code).toBe(1)
    expect(answered.reply?.value).toEqual({ error: { code: 'DYNO_ERR_SUT_EXITED', message: 'no scenario named no-such-scenario' } })
  })

  it('takes no reply of another call, and names a reply the login swallowed', async () => {
    const { host } = await hostBehind('swallowed', '"$@" >/dev/null; printf \'%s\\n\'')
    const failure = await provideSqlite(process.env, mark, host).then(() => null, (/** @type {Error & { code?: string }} */ error) => error)
    expect(failure?.code).toBe('DYNO_ERR_SERVICE_UNAVAILABLE')
    expect(failure?.message)
      .toBe('SQLite on apart://swallowed: `create` failed: its reply was not among the lines apart://swallowed printed')
  })

  it('finds the reply after a login line of megabytes that never ended', async () => {
    const { host } = await hostBehind('flood', 'head -c 6000000 /dev/zero | tr "\\000" x; "$@"; head -c 6000000 /dev/zero | tr "\\000" y')
    const sqlite = await provideSqlite(process.env, mark, host)
    expect(await sqlite.healthy()).toBe(true)
    await sqlite.stop()
  })

  afterAll(() => runs.expectNoneLeft(expect))
})

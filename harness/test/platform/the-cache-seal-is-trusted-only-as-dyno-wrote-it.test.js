// @ts-check
// The key that seals dyno's cache (platform/util/cache-seal.js) is trusted only as dyno writes it: a file of this user that no one
// else can write. Another's key is refused naming it; an empty or garbled one (a run killed while making it) is made anew, and what
// it sealed is not trusted; two first runs making it at once agree on one key. Real files in a temporary directory, real processes.
import { spawn } from 'node:child_process'
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { sealHolds, sealOf } from '../../src/platform/util/cache-seal.js'
import { collectLines } from '../support/child-lines.js'
import { waitingFor } from '../support/waiting-for.js'

const CONTENT = { figure: 42, unit: 'requests per second' }
const KEY = /^[0-9a-f]{64}\n$/
const SEAL_MODULE = pathToFileURL(join(import.meta.dirname, '../../src/platform/util/cache-seal.js')).href
/** Directories each pair of creators makes its key in, one after the other: each a race of two first runs. */
const RACES = 100

/** @param {string} text what seal.key holds @param {number} mode @returns {string} a cache directory */
function cacheWithKey (text, mode = 0o600) {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-seal-'))
  writeFileSync(join(dir, 'seal.key'), text)
  chmodSync(join(dir, 'seal.key'), mode)
  return dir
}

const aKey = () => `${'ab'.repeat(32)}\n`

/** @param {() => unknown} use @returns {{ code: unknown, message: string }} */
function refusal (use) {
  try {
    use()
  } catch (error) {
    return { code: /** @type {{ code?: unknown }} */ (error).code, message: /** @type {Error} */ (error).message }
  }
  return { code: null, message: 'nothing was refused' }
}

/**
 * A process that, told to go, makes (or reads) the key of each race's directory in turn and prints the seal it gives CONTENT.
 * @param {string} root
 */
function creator (root) {
  const script = `
    import { createInterface } from 'node:readline'
    import { join } from 'node:path'
    const { sealOf } = await import(${JSON.stringify(SEAL_MODULE)})
    process.stdout.write('ready\\n')
    for await (const line of createInterface({ input: process.stdin })) {
      const seals = []
      for (let race = 0; race < ${RACES}; race++) {
        seals.push(sealOf(join(${JSON.stringify(root)}, String(race)), ${JSON.stringify(CONTENT)}))
      }
      process.stdout.write(JSON.stringify(seals) + '\\n')
      break
    }`
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'pipe'] })
  const stderr = collectLines(/** @type {import('node:stream').Readable} */ (child.stderr))
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr: stderr.lines.join('\n') })))
  return { child, lines: collectLines(/** @type {import('node:stream').Readable} */ (child.stdout)), exited }
}

describe('the cache seal', () => {
  it('refuses a key its group or others can write, naming it', () => {
    const dir = cacheWithKey(aKey(), 0o664)
    for (const use of [() => sealOf(dir, CONTENT), () => sealHolds(dir, CONTENT, 'ab'.repeat(32))]) {
      expect(refusal(use)).toEqual({
        code: 'DYNO_ERR_CACHE_KEY',
        message: `${join(dir, 'seal.key')} cannot be trusted to seal the cache: its group or others can write it (mode 0664)`
      })
    }
  })

  it.skipIf(process.getuid?.() !== 0)('refuses a key another user owns, naming it (run as root, which can give it away)', () => {
    const dir = cacheWithKey(aKey())
    chownSync(join(dir, 'seal.key'), 65534, 65534)
    expect(refusal(() => sealOf(dir, CONTENT))).toEqual({
      code: 'DYNO_ERR_CACHE_KEY',
      message: `${join(dir, 'seal.key')} cannot be trusted to seal the cache: it belongs to uid 65534, not to this user (uid 0)`
    })
  })

  it('refuses a key that is a symbolic link, even to a key of this user', () => {
    const dir = cacheWithKey(aKey())
    const linked = mkdtempSync(join(tmpdir(), 'dyno-seal-'))
    symlinkSync(join(dir, 'seal.key'), join(linked, 'seal.key'))
    expect(refusal(() => sealOf(linked, CONTENT))).toEqual({
      code: 'DYNO_ERR_CACHE_KEY',
      message: `${join(linked, 'seal.key')} cannot be trusted to seal the cache: it is a symbolic link`
    })
  })

  it.each([['an empty', ''], ['a garbled', 'not a key\n'], ['a cut-short', 'ab'.repeat(20)]])(
    'makes %s key anew, and trusts nothing it sealed', (_, text) => {
      const dir = cacheWithKey(text)
      expect(sealHolds(dir, CONTENT, 'ab'.repeat(32))).toBe(false)
      expect(readFileSync(join(dir, 'seal.key'), 'utf8')).toBe(text)
      const seal = sealOf(dir, CONTENT)
      expect(readFileSync(join(dir, 'seal.key'), 'utf8')).toMatch(KEY)
      expect(statSync(join(dir, 'seal.key')).mode & 0o777).toBe(0o600)
      expect(sealHolds(dir, CONTENT, seal)).toBe(true)
    }
  )

  it('is made once by two first runs at once: both seal with the one key left, and nothing else is left beside it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'dyno-seal-race-'))
    for (let race = 0; race < RACES; race++) mkdirSync(join(root, String(race)))
    const creators = [creator(root), creator(root)]
    await Promise.all(creators.map(({ lines }) => lines.waitFor(/^ready$/)))
    for (const { child } of creators) child.stdin?.end('go\n')
    const ends = await waitingFor('the end of both creators', Promise.all(creators.map(({ exited }) => exited)))
    expect(ends).toEqual([{ code: 0, stderr: '' }, { code: 0, stderr: '' }])
    const [first, second] = creators.map(({ lines }) => JSON.parse(lines.lines[1]))
    expect(second).toEqual(first)
    for (let race = 0; race < RACES; race++) {
      const dir = join(root, String(race))
      expect(readFileSync(join(dir, 'seal.key'), 'utf8')).toMatch(KEY)
      expect(sealHolds(dir, CONTENT, first[race])).toBe(true)
      expect(readdirSync(dir)).toEqual(['seal.key'])
    }
  })
})

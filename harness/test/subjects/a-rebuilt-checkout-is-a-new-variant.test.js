// @ts-check
// A `path:` variant is keyed by what its package would publish (`npm pack --dry-run`: its `files` field and npm's rules), so a
// checkout whose build output changes (`dist`, which a framework such as hono or h3 loads from) is a new variant, and a new count;
// a file the package would not publish changes nothing. A checkout npm cannot pack is refused with npm's words.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { packedIntegrity } from '../../src/subjects/variants/packed-integrity.js'

const work = mkdtempSync(join(tmpdir(), 'dyno-packed-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

describe('the key of a path: variant', () => {
  it('follows the files the package would publish, build output included, and nothing else', () => {
    const dir = join(work, 'framework')
    mkdirSync(join(dir, 'dist'), { recursive: true })
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'framework', version: '1.0.0', files: ['dist'], scripts: { prepack: 'exit 1' } })
    )
    writeFileSync(join(dir, 'dist', 'index.js'), 'export default 1\n')
    writeFileSync(join(dir, 'notes.txt'), 'not published\n')
    const first = packedIntegrity(dir)
    expect(first).toMatch(/^sha512-/)
    writeFileSync(join(dir, 'notes.txt'), 'still not published\n')
    expect(packedIntegrity(dir)).toBe(first)
    writeFileSync(join(dir, 'dist', 'index.js'), 'export default 2\n')
    const rebuilt = packedIntegrity(dir)
    expect(rebuilt).not.toBe(first)
    writeFileSync(join(dir, 'dist', 'index.js'), 'export default 1\n')
    expect(packedIntegrity(dir)).toBe(first)
  })

  it('is refused with npm\'s words when npm cannot pack the checkout', () => {
    const dir = join(work, 'broken')
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'package.json'), '{ not json')
    expect(() => packedIntegrity(dir)).toThrow(expect.objectContaining({
      code: 'DYNO_ERR_VARIANT_INSTALL', message: expect.stringMatching(/npm pack --dry-run in .*broken failed/)
    }))
  })
})

// @ts-check
// A timeline names dozens of releases of one framework. Each resolves against the registry, and the registry is asked once per
// framework for its versions and once for their integrities, not once per release: 135 releases asked at once got an empty
// answer for one of them, and the plan took 107 s where it now takes 21.
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { discoverSuts } from '../../src/subjects/suts/discover-suts.js'
import { selectWithVariants } from '../../src/subjects/variants/variant-subjects.js'
import { missing, skipNote } from '../support/needs.js'

const absent = missing('registry')
const RELEASES = ['4.21.2', '4.22.3', '5.0.1', '5.1.0', '5.2.1', '5.3.0']

/** A `npm` first on the PATH that writes down each question and passes it to the real one. */
function countingNpm () {
  const dir = mkdtempSync(join(tmpdir(), 'dyno-npm-asked-'))
  const log = join(dir, 'asked.log')
  const wrapper = join(dir, 'npm')
  const realNpm = process.env.PATH?.split(':').map((entry) => join(entry, 'npm')).find((path) => {
    try {
      readFileSync(path)
      return true
    } catch {
      return false
    }
  })
  writeFileSync(wrapper, `#!/bin/sh\necho "$*" >> '${log}'\nexec '${realNpm}' "$@"\n`)
  chmodSync(wrapper, 0o755)
  return { dir, asked: () => readFileSync(log, 'utf8').trim().split('\n') }
}

describe.skipIf(absent)(`variants resolved against the registry${skipNote(absent)}`, () => {
  const path = process.env.PATH
  afterEach(() => {
    process.env.PATH = path
  })

  it('asks npm twice for six releases of express, and resolves each to its own version and integrity', async () => {
    const npm = countingNpm()
    process.env.PATH = `${npm.dir}:${path}`
    const suts = await selectWithVariants(discoverSuts(), RELEASES.map((release) => `express@${release}`), {
      cacheDir: mkdtempSync(join(tmpdir(), 'dyno-cache-')),
      install: false
    })

    expect(suts.map((sut) => sut.variant?.version)).toEqual(RELEASES)
    const integrities = suts.map((sut) => sut.variant?.integrity)
    for (const integrity of integrities) expect(integrity).toMatch(/^sha512-[A-Za-z0-9+/]+=*$/)
    expect(new Set(integrities).size).toBe(RELEASES.length)
    expect(npm.asked()).toEqual(expect.arrayContaining([
      'view --json -- express versions dist-tags',
      'view --json -- express@>=0.0.0 version dist.integrity'
    ]))
    expect(npm.asked(), npm.asked().join('\n')).toHaveLength(2)
  })

  it('resolves a prerelease, which the question of every release leaves out, with its own integrity', async () => {
    const suts = await selectWithVariants(discoverSuts(), ['express@5.3.0', 'express@5.0.0-beta.3'], {
      cacheDir: mkdtempSync(join(tmpdir(), 'dyno-cache-')),
      install: false
    })
    const [released, tagged] = suts.map((sut) => sut.variant)
    expect(released?.version).toBe('5.3.0')
    expect(tagged?.version).toBe('5.0.0-beta.3')
    expect(tagged?.integrity).toMatch(/^sha512-/)
    expect(tagged?.integrity).not.toBe(released?.integrity)
  })
})

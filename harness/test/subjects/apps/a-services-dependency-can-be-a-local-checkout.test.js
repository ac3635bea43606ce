// @ts-check
// compare-versions --app with `dep@path:<dir>`: a checkout of one of the service's dependencies (a fork, a branch of it being worked on)
// is installed into the service's cached copy as its package would be published, recorded with where it came from, and made anew when
// the checkout changes. A directory that is not that package is refused naming what it holds. Nothing is started.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { loadApp } from '../../../src/subjects/apps/load-app.js'

const FIXTURE = fileURLToPath(new URL('../../fixtures/apps/timed-service', import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'dyno-app-checkout-'))
const app = join(work, 'timed-service')
cpSync(FIXTURE, app, { recursive: true })
const checkout = join(work, 'ms-fork')
mkdirSync(checkout)
writeFileSync(join(checkout, 'package.json'), JSON.stringify({ name: 'ms', version: '2.1.3-fork.1', main: 'index.js' }))
writeFileSync(join(checkout, 'index.js'), 'module.exports = () => 1000\n')

describe('a dependency of the service from a checkout', () => {
  it('is installed into its own copy of the service, and a change in the checkout makes a new copy', async () => {
    const service = loadApp(app)
    const cacheDir = join(work, 'cache')
    const installOnce = async () => {
      const [subject] = await service.variants.select([`ms@path:${checkout}`], { cacheDir })
      expect(subject.installFailure, subject.installFailure ?? '').toBeUndefined()
      return subject
    }
    const first = await installOnce()
    const installed = JSON.parse(readFileSync(join(first.dir, 'node_modules', 'ms', 'package.json'), 'utf8'))
    expect(installed.version).toBe('2.1.3-fork.1')
    expect(first.variant).toMatchObject({ kind: 'path', dir: checkout, version: '2.1.3-fork.1', commit: null })
    expect(first.label).toBe('timed (ms@path:ms-fork)')
    const records = [{ sut: { name: 'timed', framework: 'timed', frameworkVersion: '1.0.0', variant: first.variant } }]
    expect(service.variants.describe(records, `ms@path:${checkout}`))
      .toBe(`timed (ms@path:ms-fork): ${checkout} at no git commit, installed with timed's pnpm-lock.yaml`)

    expect((await installOnce()).dir, 'the same checkout: the copy is kept').toBe(first.dir)
    writeFileSync(join(checkout, 'index.js'), 'module.exports = () => 2000\n')
    const changed = await installOnce()
    expect(changed.dir, 'the checkout changed: a copy of its own').not.toBe(first.dir)
    expect(readFileSync(join(changed.dir, 'node_modules', 'ms', 'index.js'), 'utf8')).toContain('2000')
  }, 120_000)

  it('is refused when the directory holds another package, naming what it holds', () => {
    const other = join(work, 'not-ms')
    mkdirSync(other)
    writeFileSync(join(other, 'package.json'), JSON.stringify({ name: 'bytes', version: '3.0.0' }))
    expect(() => loadApp(app).variants.check([`ms@path:${other}`], '--frameworks'))
      .toThrow(/`ms@path:.*not-ms`.*holds `bytes`, not ms; allowed: a directory holding the ms package/)
  })
})

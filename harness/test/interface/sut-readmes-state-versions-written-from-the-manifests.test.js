// @ts-check
// A SUT's versions are stated in one place: its manifest (package.json with the workspace catalog, go.mod,
// requirements.txt). Its README and docs/suts.md carry them only in blocks written from the manifests by
// `pnpm docs:write`, so the committed blocks must be what the generator writes now, and no README may state a
// pinned version by hand outside its block.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  SUT_TABLE_BLOCK,
  SUTS_DOC_FILE,
  VERSIONS_BLOCK,
  replaceBlock,
  splitBlock,
  sutTable,
  versionsBlock,
  versionsOutsideBlock
} from '../../src/interface/docs/sut-versions.js'
import { goPins, nodePins, pythonPins, readCatalog, readSutPins, sutsWithPins } from '../../src/subjects/suts/sut-pins.js'
import { PACKAGES_DIR, REPO_ROOT } from '../../src/platform/paths.js'
import { discoverSuts } from '../../src/subjects/suts/discover-suts.js'

const entries = sutsWithPins()
const byName = (/** @type {string} */ name) => {
  const entry = entries.find(({ sut }) => sut.name === name)
  if (!entry) throw new Error(`no SUT ${name}`)
  return entry
}
const read = (/** @type {string} */ file) => readFileSync(file, 'utf8')
const fix = '(run `pnpm docs:write` after changing a pin)'

describe('the blocks are what the manifests write now', () => {
  it('every package under packages/ is a SUT with a README', () => {
    const withReadme = readdirSync(PACKAGES_DIR, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && readdirSync(join(PACKAGES_DIR, entry.name)).includes('README.md'))
    expect(withReadme.map((entry) => join(PACKAGES_DIR, entry.name)).sort()).toEqual(discoverSuts().map((sut) => sut.dir).sort())
  })

  it.each(entries.map((entry) => [entry.sut.name, entry]))(
    `packages/%s/README.md has one versions block, up to date ${fix}`,
    (_name, { pins, readme }) => {
      const text = read(readme)
      const { before, content } = splitBlock(text, VERSIONS_BLOCK, readme)
      expect(before.endsWith(`\n${VERSIONS_BLOCK.start}\n`), 'the start marker, as written').toBe(true)
      expect(content).toBe(versionsBlock(pins))
    }
  )

  it(`docs/suts.md has one SUT table, up to date ${fix}`, () => {
    const text = read(SUTS_DOC_FILE)
    const { before, content } = splitBlock(text, SUT_TABLE_BLOCK, SUTS_DOC_FILE)
    expect(before.endsWith(`\n${SUT_TABLE_BLOCK.start}\n`)).toBe(true)
    expect(content).toBe(sutTable(entries))
    for (const { sut } of entries) expect(content).toMatch(new RegExp(`^\\| \\[${sut.name}\\]\\(`, 'm'))
  })

  it('writes each framework first, in bold, with the version the manifest pins', () => {
    const koa = versionsBlock(byName('koa').pins)
    const manifest = JSON.parse(read(join(byName('koa').sut.dir, 'package.json')))
    expect(koa).toContain(`| **framework** | **\`koa\`** | **${manifest.dependencies.koa}** |`)
    expect(koa).toMatch(/\| dependency \| `@koa\/router` \| \d+\.\d+\.\d+ \|/)
    expect(koa).not.toContain('@dyno/scenarios')
  })

  it('resolves catalog: entries and npm: aliases, and names a Go framework\'s module, the data clients and the WebSocket library', () => {
    const catalog = readCatalog()
    const nest = byName('nestjs-express').pins.pins
    expect(nest.find((pin) => pin.name === 'rxjs')).toMatchObject({ version: catalog.rxjs, note: 'workspace catalog' })
    expect(byName('bun-native').pins.framework).toMatchObject({ name: 'bun', version: catalog.bun })
    expect(byName('uwebsockets').pins.framework).toMatchObject({
      name: 'uWebSockets.js',
      note: 'alias of `@trufflesuite/uws-js-unofficial`'
    })
    expect(byName('uwebsockets').pins.framework.version).toMatch(/^\d+\.\d+\.\d+-unofficial\.\d+$/)
    const gin = byName('go-gin').pins
    expect(gin.framework.name).toBe('github.com/gin-gonic/gin')
    expect(gin.pins.map((pin) => pin.name)).toEqual([
      'github.com/gin-gonic/gin',
      'go',
      'github.com/gorilla/websocket',
      'github.com/jackc/pgx/v5',
      'github.com/mattn/go-sqlite3',
      'github.com/redis/go-redis/v9'
    ])
    expect(gin.pins.find((pin) => pin.name === 'github.com/gorilla/websocket')?.part).toBe('WebSocket library')
    expect(gin.pins.find((pin) => pin.name === 'github.com/jackc/pgx/v5')?.part).toBe('data client')
    expect(byName('go-nethttp').pins.framework).toMatchObject({ name: 'net/http', version: null })
    expect(byName('python-flask').pins.framework).toMatchObject({ name: 'Flask' })
  })
})

describe('a changed pin changes what is written', () => {
  it('a Node SUT whose package.json pins another version', () => {
    const { sut, pins, readme } = byName('koa')
    const manifest = JSON.parse(read(join(sut.dir, 'package.json')))
    const changed = nodePins({ ...manifest, dependencies: { ...manifest.dependencies, koa: '3.3.99' } }, sut.framework, readCatalog())
    expect(versionsBlock(changed)).not.toBe(versionsBlock(pins))
    expect(versionsBlock(changed)).toContain('**3.3.99**')
    expect(splitBlock(read(readme), VERSIONS_BLOCK, readme).content).not.toBe(versionsBlock(changed))
  })

  it('a catalog entry, a go.mod require and a requirements.txt pin', () => {
    const nest = byName('nestjs-express')
    const manifest = JSON.parse(read(join(nest.sut.dir, 'package.json')))
    const catalog = readCatalog()
    expect(versionsBlock(nodePins(manifest, nest.sut.framework, { ...catalog, rxjs: '7.99.0' }))).toContain(
      '| `rxjs` (workspace catalog) | 7.99.0 |'
    )

    const gin = byName('go-gin')
    const goMod = read(join(gin.sut.dir, 'go.mod'))
    const shared = read(join(REPO_ROOT, 'scenarios', 'go', 'go.mod'))
    expect(goPins(goMod, gin.sut.framework, [shared])).toEqual(gin.pins)
    const bumped = goPins(goMod.replace(/github\.com\/gin-gonic\/gin v\S+/, 'github.com/gin-gonic/gin v1.99.0'), gin.sut.framework, [
      shared
    ])
    expect(versionsBlock(bumped)).toContain('**v1.99.0**')
    expect(sutTable([{ sut: gin.sut, pins: bumped }])).toContain('| v1.99.0 |')

    const flask = byName('python-flask')
    const requirements = read(join(flask.sut.dir, 'requirements.txt'))
    expect(pythonPins(requirements, flask.sut.framework)).toEqual(flask.pins)
    expect(versionsBlock(pythonPins(requirements.replace(/^Flask==\S+/m, 'Flask==3.99.0'), flask.sut.framework))).toContain('**3.99.0**')
  })

  it('refuses a framework the manifest does not pin', () => {
    const { sut } = byName('koa')
    expect(() => nodePins({ name: sut.packageName, dependencies: {} }, sut.framework, {}))
      .toThrow(/`dyno.framework` is `koa`, which its `dependencies` do not pin/)
    expect(() => readSutPins({ ...sut, framework: 'not-a-dependency' })).toThrow(/not-a-dependency/)
  })
})

describe('blocks are found and replaced whole', () => {
  const doc = `# title\n\nprose\n\n${VERSIONS_BLOCK.start}\nstale\n${VERSIONS_BLOCK.end}\n\nafter\n`

  it('replaces only the block\'s content', () => {
    expect(replaceBlock(doc, VERSIONS_BLOCK, 'fresh\n', 'README.md'))
      .toBe(`# title\n\nprose\n\n${VERSIONS_BLOCK.start}\nfresh\n${VERSIONS_BLOCK.end}\n\nafter\n`)
  })

  it('refuses a document without its block or with two', () => {
    expect(() => splitBlock('# no block\n', VERSIONS_BLOCK, 'README.md')).toThrow(
      /README.md needs exactly one block: the line <!-- dyno:versions:start/
    )
    expect(() => splitBlock(doc + doc, VERSIONS_BLOCK, 'README.md')).toThrow(/it has 2 start and 2 end markers/)
  })
})

describe('no README states a pinned version by hand', () => {
  it.each(entries.map((entry) => [entry.sut.name, entry]))('packages/%s/README.md, outside its block', (_name, { pins, readme }) => {
    expect(
      versionsOutsideBlock(read(readme), VERSIONS_BLOCK, readme, pins.pins),
      `${readme} states these pinned versions outside its block`
    ).toEqual([])
  })

  it('docs/suts.md, outside its block, states no SUT\'s pin', () => {
    const all = entries.flatMap(({ pins }) => pins.pins)
    expect(
      versionsOutsideBlock(read(SUTS_DOC_FILE), SUT_TABLE_BLOCK, SUTS_DOC_FILE, all),
      `${SUTS_DOC_FILE} states these pinned versions`
    ).toEqual([])
  })

  it('finds a pinned version written by hand, whole and with a Go `v`, and not inside a longer version', () => {
    const { pins, readme } = byName('koa')
    const koa = String(pins.framework.version)
    const router = String(pins.pins.find((pin) => pin.name === '@koa/router')?.version)
    const planted = `On **koa ${koa}**, with @koa/router v${router} (not 1${koa}, ${koa}-rc.1 or ${koa}.1).\n`
    const text = read(readme).replace('# @dyno/sut-koa\n', `# @dyno/sut-koa\n\n${planted}`)
    expect(versionsOutsideBlock(text, VERSIONS_BLOCK, readme, pins.pins)).toEqual([koa, `v${router}`])
  })
})

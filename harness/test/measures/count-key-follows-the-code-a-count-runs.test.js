// @ts-check
// A cached count is keyed by the harness code a count runs: the count's modules and whatever they import. A change to a
// module they import moves the key; a change to a module outside that graph (a report, an engine) leaves it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { countingModules, moduleGraphHash } from '../../src/measures/instructions/counts/counting-code.js'

/** @type {string[]} */
const made = []
afterEach(() => { for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true }) })

/** A small tree of modules: entry → ./lib/a.js → ../util/b.js (and a dynamic import of ./c.js); report.js imports a.js. */
function moduleTree () {
  const root = mkdtempSync(join(tmpdir(), 'dyno-module-graph-'))
  made.push(root)
  mkdirSync(join(root, 'lib'))
  mkdirSync(join(root, 'util'))
  const files = {
    entry: join(root, 'entry.js'),
    a: join(root, 'lib', 'a.js'),
    b: join(root, 'util', 'b.js'),
    c: join(root, 'lib', 'c.js'),
    report: join(root, 'report.js'),
    typed: join(root, 'typed.js'),
    old: join(root, 'old.js')
  }
  writeFileSync(files.entry, "import { a } from './lib/a.js'\n/** @param {import('./typed.js').T} t */\n" +
    "export const entry = (t) => a(t) // was import('./old.js')\n")
  writeFileSync(files.typed, '/** @typedef {number} T */\nexport {}\n')
  writeFileSync(files.old, 'export const old = 1\n')
  writeFileSync(files.a, "import { b } from '../util/b.js'\nimport 'node:fs'\nexport const a = () => b + import('./c.js')\n")
  writeFileSync(files.b, 'export const b = 1\n')
  writeFileSync(files.c, 'export const c = 2\n')
  writeFileSync(files.report, "import { a } from './lib/a.js'\nexport const report = a\n")
  return { root, files }
}

describe('the harness part of a count key', () => {
  it('changes with any module the count imports, directly, indirectly or dynamically', () => {
    const { root, files } = moduleTree()
    let previous = moduleGraphHash([files.entry], root)
    for (const file of [files.b, files.c]) {
      writeFileSync(file, 'export const b = 3\nexport const c = 3\n')
      const after = moduleGraphHash([files.entry], root)
      expect(after, file).not.toBe(previous)
      previous = after
    }
  })

  it('stays when only a module outside the graph changes', () => {
    const { root, files } = moduleTree()
    const before = moduleGraphHash([files.entry], root)
    writeFileSync(files.report, "import { a } from './lib/a.js'\nexport const report = () => a() * 2\n")
    writeFileSync(join(root, 'unrelated.js'), 'export const unrelated = true\n')
    expect(moduleGraphHash([files.entry], root)).toBe(before)
  })

  it('does not follow an import written in a comment: a JSDoc type runs nothing', () => {
    const { root, files } = moduleTree()
    const before = moduleGraphHash([files.entry], root)
    writeFileSync(files.typed, '/** @typedef {string} T */\nexport {}\n')
    writeFileSync(files.old, 'export const old = 2\n')
    expect(moduleGraphHash([files.entry], root)).toBe(before)
  })

  it('leaves out a module named as left out, and what only it imports', () => {
    const { root, files } = moduleTree()
    const before = moduleGraphHash([files.entry], root, [files.b])
    writeFileSync(files.b, 'export const b = 5\n')
    expect(moduleGraphHash([files.entry], root, [files.b])).toBe(before)
    expect(moduleGraphHash([files.entry], root)).not.toBe(before)
  })

  it("of dyno's counts holds the count, the SUT's start and the checks of answers, not the hosts, the registry or the catalogue", () => {
    const modules = countingModules()
    for (const module of ['count-instructions.js', 'count-settle.js', 'send-requests.js', 'start-sut.js', 'check-response.js']) {
      expect(modules.some((path) => path.endsWith(`/${module}`)), module).toBe(true)
    }
    expect(modules.filter((path) => /hosts\/ssh|hosts\/remote|subjects\/variants|platform\/errors\.js/.test(path))).toEqual([])
  })

  it('is the same for the same modules in another checkout', () => {
    const first = moduleTree()
    const second = moduleTree()
    expect(moduleGraphHash([second.files.entry], second.root)).toBe(moduleGraphHash([first.files.entry], first.root))
  })
})

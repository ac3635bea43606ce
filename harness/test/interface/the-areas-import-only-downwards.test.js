// @ts-check
// The house of harness/src as its README draws it: ten areas, each importing only what its own README's "May import:" line names
// (the areas below it), and no file reaching back into a file that reaches it. An import that climbs, or a circle of files, fails
// here with the files named. What is read is what runs: import statements and import() calls in code; a JSDoc type that names a
// module (`@type {import('…').X}`) is erased before anything runs and is not an import, but a type that climbs is a dependency the
// reader must climb to follow: those are held to the same rule, with the one exception below named and why.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { HARNESS_DIR } from '../../src/platform/paths.js'

const SRC = join(HARNESS_DIR, 'src')

/** @returns {Map<string, string[]>} each area and the areas its README says it may import */
function declaredAreas () {
  const areas = new Map()
  for (const entry of readdirSync(SRC, { withFileTypes: true }).filter((one) => one.isDirectory())) {
    const readme = readFileSync(join(SRC, entry.name, 'README.md'), 'utf8')
    const line = /^May import: (.*)$/m.exec(readme)?.[1]
    if (line === undefined) throw new Error(`${entry.name}/README.md has no "May import:" line`)
    areas.set(entry.name, line === 'nothing of dyno.' ? [] : line === 'every other area.' ? ['*'] : line.replace(/\.$/, '').split(', '))
  }
  return areas
}

/**
 * @param {string} text @returns {string} the code of a source file: its comment lines (JSDoc among them) and casts left out
 */
const codeOf = (text) => text.split('\n').filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
  .map((line) => line.replace(/\/\*\*.*?\*\//g, '')).join('\n')

/** @returns {Map<string, string[]>} each source file (relative to src) and the source files it imports */
function importsOfFiles () {
  const files = readdirSync(SRC, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.js')).map((entry) => join(entry.parentPath, entry.name))
  const graph = new Map()
  for (const file of files) {
    const text = codeOf(readFileSync(file, 'utf8'))
    const specifiers = [...text.matchAll(/(?:from\s+|import\(\s*)'(\.\.?\/[^']+)'/g)].map((match) => match[1])
    graph.set(relative(SRC, file), [...new Set(specifiers.map((specifier) => relative(SRC, resolve(dirname(file), specifier))))]
      .filter((target) => !target.startsWith('..')))
  }
  return graph
}

describe('the areas of harness/src', () => {
  const areas = declaredAreas()
  const graph = importsOfFiles()

  it('are at most ten, and each says what it may import', () => {
    expect(areas.size).toBeGreaterThan(0)
    expect(areas.size).toBeLessThanOrEqual(10)
    const loose = readdirSync(SRC, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name !== 'README.md').map((entry) => entry.name)
    expect(loose, 'files at the top of harness/src, outside every area').toEqual([])
    for (const [area, allowed] of areas) {
      for (const other of allowed) if (other !== '*') expect([...areas.keys()], `${area}/README.md names ${other}`).toContain(other)
    }
  })

  it('import only the areas their READMEs allow', () => {
    const climbing = []
    for (const [file, targets] of graph) {
      const from = file.split('/')[0]
      const allowed = /** @type {string[]} */ (areas.get(from))
      for (const target of targets) {
        const to = target.split('/')[0]
        if (to !== from && !allowed.includes('*') && !allowed.includes(to)) climbing.push(`${file} -> ${target}`)
      }
    }
    expect(climbing).toEqual([])
  })

  it('name in their JSDoc types only what they may import, but for the result record\'s figures of each measure', () => {
    // A result record holds each measure's figures under the measure's own field (`instructions`, `capacity`, `launchWarmup`): their
    // shapes are the measures' own, written where they are measured (one of them in a module whose text keys every count's identity).
    const RECORD_FIGURES = 'records/result-record.js -> measures/'
    const climbing = []
    for (const file of graph.keys()) {
      const from = file.split('/')[0]
      const allowed = /** @type {string[]} */ (areas.get(from))
      const text = readFileSync(join(SRC, file), 'utf8')
      for (const [, specifier] of text.matchAll(/import\(\s*'(\.\.?\/[^']+)'\s*\)\.\w+/g)) {
        const target = relative(SRC, resolve(dirname(join(SRC, file)), specifier))
        const to = target.split('/')[0]
        const climb = `${file} -> ${target}`
        if (to !== from && !allowed.includes('*') && !allowed.includes(to) && !climb.startsWith(RECORD_FIGURES)) climbing.push(climb)
      }
    }
    expect(climbing).toEqual([])
  })

  it('hold no circle of files', () => {
    const state = new Map()
    const circles = []
    /** @param {string} file @param {string[]} path */
    const visit = (file, path) => {
      if (state.get(file) === 'done') return
      if (state.get(file) === 'open') {
        circles.push([...path.slice(path.indexOf(file)), file].join(' -> '))
        return
      }
      state.set(file, 'open')
      for (const target of graph.get(file) ?? []) visit(target, [...path, file])
      state.set(file, 'done')
    }
    for (const file of graph.keys()) visit(file, [])
    expect(circles).toEqual([])
  })
})

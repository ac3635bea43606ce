// @ts-check
// The READMEs of harness/src are maps a newcomer walks by: every file, folder or test one names in backticks is there (a name is
// looked up in the README's own area, as a path or the end of one), and every measure, engine and kind of host, as its registry
// lists them, is on the map of its area.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ENGINES } from '../../src/load/engines/index.js'
import { MEASURES } from '../../src/measures/index.js'
import { HOST_KINDS } from '../../src/platform/hosts/host-kinds.js'
import { HARNESS_DIR } from '../../src/platform/paths.js'

const SRC = join(HARNESS_DIR, 'src')
const READMES = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((path) => path.endsWith('README.md'))

/** @param {string} readme relative to src @returns {string[]} the names of files and folders it gives in backticks */
function namedPaths (readme) {
  const text = readFileSync(join(SRC, readme), 'utf8')
  const PATH = /^[\w.-]+(\/[\w.-]+)*(\/|\.(js|md|json))$/
  return [...text.matchAll(/`([\w./-]+)`/g)].map((match) => match[1]).filter((name) => PATH.test(name))
}

/** @param {string} dir @returns {string[]} every file and folder under it, relative to it, folders ending in `/` */
const pathsUnder = (dir) => readdirSync(dir, { recursive: true, withFileTypes: true })
  .map((entry) => relative(dir, join(entry.parentPath, entry.name)) + (entry.isDirectory() ? '/' : ''))

/** @param {string} readme @param {string} name @returns {boolean} */
function isThere (readme, name) {
  if (name.startsWith('test/')) return existsSync(join(HARNESS_DIR, name))
  return pathsUnder(join(SRC, dirname(readme))).some((path) => path === name || path.endsWith(`/${name}`))
}

/** @param {string} area @returns {string} */
const readmeOf = (area) => readFileSync(join(SRC, area, 'README.md'), 'utf8')

describe('the READMEs of harness/src', () => {
  it('are found, one for src and one for each of its ten areas', () => {
    expect(READMES.length).toBe(11)
  })

  it.each(READMES)('%s names only files and folders that are there', (readme) => {
    const missing = namedPaths(readme).filter((name) => !isThere(readme, name))
    expect(missing, `${readme} names what is not there`).toEqual([])
  })

  it('list every measure, as a folder of measures/ and by name on the map of src', () => {
    for (const { name } of MEASURES) {
      expect(readmeOf('measures'), name).toContain(`\`${name}/\``)
      expect(readFileSync(join(SRC, 'README.md'), 'utf8'), name).toContain(`\`${name}\``)
    }
  })

  it('list every engine on the map of load/, and every kind of host on the map of platform/', () => {
    for (const { name } of ENGINES) expect(readmeOf('load'), name).toMatch(new RegExp(`\\b${name}\\b`))
    for (const { name } of HOST_KINDS) expect(readmeOf('platform'), name).toContain(`\`${name}/\``)
  })
})

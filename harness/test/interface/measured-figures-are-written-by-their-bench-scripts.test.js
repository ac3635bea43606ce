// @ts-check
// A figure in the documentation is written by the script that measured it, into a marked block, never by hand: every
// block names a bench script that exists and writes that block, every script that writes a block has its place, and
// writing replaces the block's content alone.
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { blockMarkers, measuredBlockNames, writeMeasuredBlock } from '../../bench/support/measured-block.js'
import { HARNESS_DIR, REPO_ROOT } from '../../src/platform/paths.js'

const BENCH_DIR = join(HARNESS_DIR, 'bench')
const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(REPO_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name))
]
const scripts = readdirSync(BENCH_DIR).filter((name) => name.endsWith('.js'))
const writers = scripts.filter((name) => readFileSync(join(BENCH_DIR, name), 'utf8').includes('writeMeasuredBlock('))

describe('measured figures in the documentation', () => {
  it.each(DOCUMENTS)('%s: every measured block is written by a bench script that exists', (document) => {
    const text = readFileSync(join(REPO_ROOT, document), 'utf8')
    for (const name of measuredBlockNames(text)) {
      expect(writers, `${document}: block ${name}`).toContain(`${name}.js`)
      const { end } = blockMarkers(name)
      expect(text.split(end).length - 1, `${document}: block ${name} ends once`).toBe(1)
    }
  })

  it('has a place for the figures of every script that writes them, once', () => {
    const placed = DOCUMENTS.flatMap((document) => measuredBlockNames(readFileSync(join(REPO_ROOT, document), 'utf8')))
    expect(placed.toSorted()).toEqual(writers.map((name) => name.replace(/\.js$/, '')).toSorted())
  })

  it('replaces what is between the markers and nothing else, saying when, where and by which command', () => {
    const { start, end } = blockMarkers('some-bench')
    const file = join(mkdtempSync(join(tmpdir(), 'dyno-measured-')), 'doc.md')
    writeFileSync(file, `# Before\n\n${start}\nold figures\n${end}\n\nAfter.\n`)
    const script = pathToFileURL(join(BENCH_DIR, 'some-bench.js')).href
    writeMeasuredBlock({ script, file, argv: ['--pairs', '3'], lines: ['| a | b |', '| 1 | 2 |'] })
    writeMeasuredBlock({ script, file, argv: ['--pairs', '3'], lines: ['| a | b |', '| 3 | 4 |'] })
    const text = readFileSync(file, 'utf8')
    const header = '\\*Measured \\d{4}-\\d{2}-\\d{2} by `node harness/bench/some-bench\\.js --pairs 3` on .+, '
    expect(text).toMatch(new RegExp(`^# Before\\n\\n${escape(start)}\\n${header}` +
      `\\d+ cores, .*commit [0-9a-f]+\\.\\*\\n\\n\\| a \\| b \\|\\n\\| 3 \\| 4 \\|\\n${escape(end)}\\n\\nAfter\\.\\n$`))
    expect(() => writeMeasuredBlock({ script: pathToFileURL(join(BENCH_DIR, 'other.js')).href, file, lines: [] })).toThrowError(
      /has no block for other/
    )
  })
})

/** @param {string} text @returns {string} the text as a literal in a regular expression */
function escape (text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

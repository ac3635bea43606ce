// @ts-check
// The versions each SUT package pins (subjects/suts/sut-pins.js reads them from its manifest), written into a marked block of its
// README and of docs/suts.md by `pnpm docs:write`, so a pin is stated in one place only. A test fails when a block differs from what
// this writes, or when a README states a pinned version outside its block.
import { readFileSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { REPO_ROOT } from '../../platform/paths.js'
import { sutsWithPins } from '../../subjects/suts/sut-pins.js'

/**
 * @typedef {import('../../subjects/suts/sut-pins.js').Pin} Pin
 * @typedef {import('../../subjects/suts/sut-pins.js').SutPins} SutPins
 */

/** The block of a SUT's README.md. */
export const VERSIONS_BLOCK = Object.freeze({
  start: '<!-- dyno:versions:start (written by `pnpm docs:write` from the package\'s manifest; do not edit by hand) -->',
  end: '<!-- dyno:versions:end -->'
})
/** The block of docs/suts.md. */
export const SUT_TABLE_BLOCK = Object.freeze({
  start: '<!-- dyno:sut-table:start (written by `pnpm docs:write` from each SUT\'s manifest; do not edit by hand) -->',
  end: '<!-- dyno:sut-table:end -->'
})
/** The document that lists every SUT. */
export const SUTS_DOC_FILE = join(REPO_ROOT, 'docs', 'suts.md')

/** @param {string} text a table cell: no pipes, no line breaks */
const cell = (text) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ')

/** @param {Pin} pin */
function versionText (pin) {
  if (pin.version !== null) return pin.version
  return pin.name.startsWith('node:') ? 'the Node.js that runs it' : 'the Go that builds it'
}

/**
 * The content of a README's versions block: a table of every pin, the framework first and in bold.
 * @param {SutPins} pins
 * @returns {string}
 */
export function versionsBlock ({ pins, source }) {
  const rows = pins.map((pin, index) => {
    const cells = [pin.part, `\`${pin.name}\`${pin.note ? ` (${pin.note})` : ''}`, versionText(pin)].map(cell)
    // The framework's row first, in bold.
    return `| ${(index === 0 ? cells.map((text) => `**${text}**`) : cells).join(' | ')} |`
  })
  return [source, '', '| part | package | version |', '|---|---|---|', ...rows, ''].join('\n')
}

/**
 * The content of docs/suts.md's block: one row per SUT.
 * @param {{ sut: import('../../subjects/suts/discover-suts.js').SutDescriptor, pins: SutPins }[]} entries
 * @returns {string}
 */
export function sutTable (entries) {
  const version = (/** @type {SutPins} */ { framework, pins }) => {
    if (framework.version !== null) return framework.version
    const go = pins.find((pin) => pin.name === 'go')
    return go ? `Go's (\`go ${go.version}\` or newer)` : 'Node\'s own'
  }
  const readme = (/** @type {string} */ dir) => relative(dirname(SUTS_DOC_FILE), join(dir, 'README.md')).split(sep).join('/')
  return [
    '| SUT | runtime | framework | pinned version | validator |',
    '|---|---|---|---|---|',
    ...entries.map(
      ({ sut, pins }) =>
        `| [${sut.name}](${readme(sut.dir)}) | ${sut.runtimeKind} | \`${pins.framework.name}\` | ${version(pins)} | ` +
          `${cell(sut.validator)} |`
    ),
    ''
  ].join('\n')
}

/**
 * Splits a document at its one block.
 * @param {string} text @param {{ start: string, end: string }} block @param {string} file named in the error
 * @returns {{ before: string, content: string, after: string }} `before` ends with the start marker's line, `after` begins with the end
 *   marker
 */
export function splitBlock (text, block, file) {
  const opener = block.start.slice(0, block.start.indexOf(' ', '<!-- '.length))
  const starts = text.split(opener).length - 1
  const ends = text.split(block.end).length - 1
  const startAt = text.indexOf(opener)
  const contentAt = text.indexOf('\n', startAt) + 1
  const endAt = text.indexOf(block.end)
  if (starts !== 1 || ends !== 1 || contentAt === 0 || endAt < contentAt) {
    throw new Error(`${file} needs exactly one block: the line ${block.start}, the lines written there, then the line ${block.end} ` +
      `(it has ${starts} start and ${ends} end markers)`)
  }
  return { before: text.slice(0, contentAt), content: text.slice(contentAt, endAt), after: text.slice(endAt) }
}

/**
 * @param {string} text @param {{ start: string, end: string }} block @param {string} content @param {string} file
 * @returns {string} the document with only the block's content replaced
 */
export function replaceBlock (text, block, content, file) {
  const { before, after } = splitBlock(text, block, file)
  return before + content + after
}

/**
 * The pinned versions a document states outside its block, each as written (`1.12.0`, `v1.12.0`).
 * @param {string} text @param {{ start: string, end: string }} block @param {string} file @param {Pin[]} pins
 * @returns {string[]}
 */
export function versionsOutsideBlock (text, block, file, pins) {
  const { before, after } = splitBlock(text, block, file)
  const outside = before + after
  const versions = new Set(pins.flatMap((pin) => pin.version === null ? [] : [pin.version.replace(/^v(?=\d)/, '')]))
  return [...versions].flatMap((version) => {
    const escaped = version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    // The whole version, not a part of a longer one: `1.12.0` is not found in `11.12.0` or `1.12.0-rc.1`.
    return outside.match(new RegExp(`(?<![\\w.])v?${escaped}(?![\\w-]|\\.\\d)`, 'g')) ?? []
  })
}

/**
 * Every document this module writes, as it should read now: each SUT's README.md and docs/suts.md.
 * @returns {{ file: string, text: string }[]}
 */
export function writtenSutDocs () {
  const entries = sutsWithPins()
  const readmes = entries.map(({ pins, readme }) =>
    ({ file: readme, text: replaceBlock(readFileSync(readme, 'utf8'), VERSIONS_BLOCK, versionsBlock(pins), readme) }))
  const suts = {
    file: SUTS_DOC_FILE,
    text: replaceBlock(readFileSync(SUTS_DOC_FILE, 'utf8'), SUT_TABLE_BLOCK, sutTable(entries), SUTS_DOC_FILE)
  }
  return [...readmes, suts]
}

// @ts-check
// The versions each SUT package pins, read from its manifest (package.json with the workspace catalog, go.mod,
// requirements.txt) and written into a marked block of its README and of docs/suts.md by `pnpm docs:write`, so a
// pin is stated in one place only. A test fails when a block differs from what this writes, or when a README states
// a pinned version outside its block.
import { readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { DynoError } from '../../platform/errors.js'
import { REPO_ROOT } from '../../platform/paths.js'
import { discoverSuts } from '../../subjects/suts/discover-suts.js'

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
const WORKSPACE_FILE = join(REPO_ROOT, 'pnpm-workspace.yaml')

/**
 * @typedef {object} Pin one version a SUT package pins
 * @property {string} part what it is to the SUT: `framework`, `dependency`, `data client`, …
 * @property {string} name the package or module as the manifest names it
 * @property {string | null} version as the manifest writes it; null for a runtime's built-in module (nothing pinned)
 * @property {string} [note] how it is pinned, when that is not plain (a catalog entry, an `npm:` alias, a marker)
 *
 * @typedef {object} SutPins
 * @property {Pin} framework the pin of `dyno.framework`
 * @property {Pin[]} pins every pin shown, the framework first
 * @property {string} source where the pins are kept, one sentence
 */

/** @param {string} text a table cell: no pipes, no line breaks */
const cell = (text) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ')
/** @param {string} text */
const unquote = (text) => text.replace(/^(['"])(.*)\1$/, '$2')

/**
 * The default `catalog:` of pnpm-workspace.yaml: a flat map of package → version (the only shape pnpm gives it).
 * @param {string} yaml the text of pnpm-workspace.yaml
 * @returns {Record<string, string>}
 */
export function parseCatalog (yaml) {
  /** @type {Record<string, string>} */
  const catalog = {}
  let inside = false
  for (const line of yaml.split('\n')) {
    if (/^\S/.test(line)) {
      inside = /^catalog:\s*(#.*)?$/.test(line)
      continue
    }
    const entry = inside ? /^\s+((?:'[^']+'|"[^"]+"|[^\s:#'"][^:]*)):\s*([^\s#]+)/.exec(line) : null
    if (entry) catalog[unquote(entry[1])] = unquote(entry[2])
  }
  return catalog
}

/** @returns {Record<string, string>} the workspace catalog */
export const readCatalog = () => parseCatalog(readFileSync(WORKSPACE_FILE, 'utf8'))

/**
 * The pins of a Node-run SUT (`node`, `bun`, `deno`): its package.json `dependencies`, `catalog:` entries resolved
 * from the workspace catalog; `workspace:` dependencies are dyno's own and left out.
 * @param {{ name?: string, dependencies?: Record<string, string> }} manifest the package.json
 * @param {string} framework `dyno.framework`
 * @param {Record<string, string>} catalog
 * @returns {SutPins}
 */
export function nodePins (manifest, framework, catalog) {
  /** @type {Pin[]} */
  const pins = []
  for (const [name, spec] of Object.entries(manifest.dependencies ?? {})) {
    if (spec.startsWith('workspace:')) continue
    if (spec.startsWith('catalog:')) {
      if (spec !== 'catalog:' || catalog[name] === undefined) {
        throw new DynoError(
          'DYNO_ERR_SUT_PACKAGE',
          `${manifest.name}: \`${name}\` is \`${spec}\`, but the workspace catalog has no \`${name}\``
        )
      }
      pins.push({ part: 'dependency', name, version: catalog[name], note: 'workspace catalog' })
      continue
    }
    const alias = /^npm:(@?[^@]+)@(.+)$/.exec(spec)
    pins.push(
      alias
        ? { part: 'dependency', name, version: alias[2], note: `alias of \`${alias[1]}\`` }
        : { part: 'dependency', name, version: spec }
    )
  }
  const catalogued = pins.some((pin) => pin.note === 'workspace catalog')
  const source =
    pins.length === 0
      ? "Nothing pinned: the framework is the runtime's own."
      : 'Pinned in `package.json` ' +
        `\`dependencies\`${catalogued ? ', `catalog:` entries from the workspace catalog (`pnpm-workspace.yaml`)' : ''}.`
  if (framework.startsWith('node:')) {
    return withFramework({ part: 'framework', name: framework, version: null, note: 'built in' }, pins, source)
  }
  const pin = pins.find((entry) => entry.name === framework)
  if (!pin) {
    throw new DynoError(
      'DYNO_ERR_SUT_PACKAGE',
      `${manifest.name}: \`dyno.framework\` is \`${framework}\`, which its \`dependencies\` do not pin`
    )
  }
  return withFramework({ ...pin, part: 'framework' }, pins.filter((entry) => entry !== pin), source)
}

/**
 * @param {string} goMod the text of a go.mod
 * @returns {{ go: string | null, requires: { path: string, version: string, indirect: boolean }[], replaces: Map<string, string> }}
 */
export function parseGoMod (goMod) {
  const lines = goMod.split('\n').map((line) => line.trim())
  /** @type {{ path: string, version: string, indirect: boolean }[]} */
  const requires = []
  /** @type {Map<string, string>} */
  const replaces = new Map()
  let go = null
  let block = ''
  for (const line of lines) {
    if (line === ')') { block = ''; continue }
    const opened = /^(require|replace)\s*\($/.exec(line)
    if (opened) { block = opened[1]; continue }
    const directive = /^(go|require|replace)\s+(.*)$/.exec(line)
    const [kind, rest] = directive ? [directive[1], directive[2]] : [block, line]
    if (kind === 'go') go = rest.trim()
    const require = kind === 'require' ? /^(\S+)\s+(\S+)(\s*\/\/\s*indirect)?/.exec(rest) : null
    if (require) requires.push({ path: require[1], version: require[2], indirect: Boolean(require[3]) })
    const replace = kind === 'replace' ? /^(\S+)(?:\s+\S+)?\s+=>\s+(\S+)/.exec(rest) : null
    if (replace) replaces.set(replace[1], replace[2])
  }
  return { go, requires, replaces }
}

/** What a module the shared Go module requires is to a SUT, where it is not one of its data clients. */
const SHARED_GO_MODULE_PARTS = Object.freeze({ 'github.com/gorilla/websocket': 'WebSocket library' })

/**
 * The pins of a Go SUT that matter: the framework module, the data clients and the WebSocket library (what the shared local
 * module, brought in by a `replace` to a directory, requires directly), as the SUT's go.mod selects them, and the `go` line.
 * @param {string} goMod the SUT's go.mod
 * @param {string} framework `dyno.framework`: the last element of its module path (`gin`), or a standard library package
 * @param {string[]} sharedGoMods the go.mod of each module the SUT replaces by a local directory
 * @returns {SutPins}
 */
export function goPins (goMod, framework, sharedGoMods) {
  const { go, requires } = parseGoMod(goMod)
  if (!go) throw new DynoError('DYNO_ERR_SUT_PACKAGE', `go.mod of the \`${framework}\` SUT has no \`go\` line`)
  const lastElement = (/** @type {string} */ path) => path.split('/').filter((element) => !/^v\d+$/.test(element)).at(-1)
  const selected = (/** @type {string} */ path) => requires.find((require) => require.path === path)
  const frameworkModule = requires.find((require) => lastElement(require.path) === framework)
  const standardLibrary = !frameworkModule && !framework.split('/')[0].includes('.')
  if (!frameworkModule && !standardLibrary) {
    throw new DynoError('DYNO_ERR_SUT_PACKAGE', `go.mod requires no module for \`dyno.framework\` \`${framework}\``)
  }
  const clients = sharedGoMods.flatMap((text) => parseGoMod(text).requires.filter((require) => !require.indirect))
    .map((require) => selected(require.path) ?? require)
    .map((require) => /** @type {Pin} */ ({
      part: SHARED_GO_MODULE_PARTS[/** @type {keyof typeof SHARED_GO_MODULE_PARTS} */ (require.path)] ?? 'data client',
      name: require.path,
      version: require.version
    }))
  const goPin = /** @type {Pin} */ ({ part: 'Go', name: 'go', version: go, note: 'the `go` line: the oldest Go that builds it' })
  return withFramework(
    frameworkModule
      ? { part: 'framework', name: frameworkModule.path, version: frameworkModule.version }
      : { part: 'framework', name: framework, version: null, note: 'standard library' },
    [goPin, ...clients],
    'Pinned in `go.mod` (with `go.sum`): the framework, the `go` line and the data clients and WebSocket library that ' +
      '`dyno.local/scenarios` ' +
      'requires; ' +
      'the other `require` lines are their dependencies.'
  )
}

/** @param {string} name a Python distribution name @returns {string} the name pip compares */
const normalizePython = (name) => name.toLowerCase().replace(/\[.*\]$/, '').replace(/[-_.]+/g, '-')

/**
 * The pins of a Python SUT: every `name==version` line of requirements.txt (the whole environment). Lines before
 * the first comment that follows a pin are what the SUT asks for; the rest are their dependencies.
 * @param {string} requirements the text of requirements.txt
 * @param {string} framework `dyno.framework`, a distribution name
 * @returns {SutPins}
 */
export function pythonPins (requirements, framework) {
  /** @type {Pin[]} */
  const pins = []
  let part = 'requirement'
  for (const line of requirements.split('\n').map((text) => text.trim())) {
    if (line.startsWith('#')) {
      if (pins.length > 0) part = 'dependency'
      continue
    }
    const pin = /^([A-Za-z0-9][\w.-]*(?:\[[\w,.-]+\])?)\s*==\s*([^\s;]+)\s*(?:;\s*(.+))?$/.exec(line)
    if (pin) pins.push({ part, name: pin[1], version: pin[2], ...(pin[3] ? { note: `only where ${pin[3]}` } : {}) })
  }
  const frameworkPin = pins.find((pin) => normalizePython(pin.name) === normalizePython(framework))
  if (!frameworkPin) throw new DynoError('DYNO_ERR_SUT_PACKAGE', `requirements.txt pins no \`${framework}\` (\`dyno.framework\`)`)
  return withFramework({ ...frameworkPin, part: 'framework' }, pins.filter((pin) => pin !== frameworkPin),
    'Pinned in `requirements.txt`, every package of the environment: the requirements, then their dependencies.')
}

/** @param {Pin} framework @param {Pin[]} others @param {string} source @returns {SutPins} */
const withFramework = (framework, others, source) => ({ framework, pins: [framework, ...others], source })

/**
 * What a SUT package pins, read from its manifest.
 * @param {import('../../subjects/suts/discover-suts.js').SutDescriptor} sut
 * @param {Record<string, string>} [catalog] the workspace catalog
 * @returns {SutPins}
 */
export function readSutPins (sut, catalog = readCatalog()) {
  const read = (/** @type {string} */ file) => readFileSync(join(sut.dir, file), 'utf8')
  if (sut.runtimeKind === 'go') {
    const goMod = read('go.mod')
    const local = [...parseGoMod(goMod).replaces.values()].filter(
      (target) => target.startsWith('../../docs/') || target.startsWith('../../')
    )
    return goPins(goMod, sut.framework, local.map((dir) => readFileSync(resolve(sut.dir, dir, 'go.mod'), 'utf8')))
  }
  if (sut.runtimeKind === 'python') return pythonPins(read('requirements.txt'), sut.framework)
  return nodePins(JSON.parse(read('package.json')), sut.framework, catalog)
}

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
 * Every SUT with its pins, in discoverSuts() order.
 * @param {import('../../subjects/suts/discover-suts.js').SutDescriptor[]} [suts]
 */
export function sutsWithPins (suts = discoverSuts()) {
  const catalog = readCatalog()
  return suts.map((sut) => ({ sut, pins: readSutPins(sut, catalog), readme: join(sut.dir, 'README.md') }))
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

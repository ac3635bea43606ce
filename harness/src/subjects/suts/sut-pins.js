// @ts-check
// The versions a SUT package pins, read from its manifest: package.json with the workspace catalog (Node, Bun, Deno), go.mod, or
// requirements.txt, as its kind of runtime keeps them. The docs write them into each SUT's README and docs/suts.md.
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { DynoError } from '../../platform/errors.js'
import { REPO_ROOT } from '../../platform/paths.js'
import { discoverSuts } from './discover-suts.js'

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
 * How each kind of runtime keeps a SUT's pins: Go in go.mod (with the go.mod of each shared module a `replace` brings in from the
 * repository), Python in requirements.txt; Node, Bun and Deno in package.json with the workspace catalog.
 * @type {Readonly<Record<string, (sut: import('./discover-suts.js').SutDescriptor, catalog: Record<string, string>) => SutPins>>}
 */
const MANIFEST_PINS = Object.freeze({
  go: (sut) => {
    const goMod = readFileSync(join(sut.dir, 'go.mod'), 'utf8')
    const local = [...parseGoMod(goMod).replaces.values()].filter((target) => target.startsWith('../../'))
    return goPins(goMod, sut.framework, local.map((dir) => readFileSync(resolve(sut.dir, dir, 'go.mod'), 'utf8')))
  },
  python: (sut) => pythonPins(readFileSync(join(sut.dir, 'requirements.txt'), 'utf8'), sut.framework),
  node: (sut, catalog) => nodePins(JSON.parse(readFileSync(join(sut.dir, 'package.json'), 'utf8')), sut.framework, catalog)
})

/**
 * What a SUT package pins, read from its manifest.
 * @param {import('./discover-suts.js').SutDescriptor} sut
 * @param {Record<string, string>} [catalog] the workspace catalog
 * @returns {SutPins}
 */
export const readSutPins = (sut, catalog = readCatalog()) => (MANIFEST_PINS[sut.runtimeKind] ?? MANIFEST_PINS.node)(sut, catalog)

/**
 * Every SUT with its pins, in discoverSuts() order.
 * @param {import('./discover-suts.js').SutDescriptor[]} [suts]
 */
export function sutsWithPins (suts = discoverSuts()) {
  const catalog = readCatalog()
  return suts.map((sut) => ({ sut, pins: readSutPins(sut, catalog), readme: join(sut.dir, 'README.md') }))
}

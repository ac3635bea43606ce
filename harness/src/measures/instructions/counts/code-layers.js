// @ts-check
// What a function in a count is and whose code it is. Names come from callgrind (native symbols, `Builtins_…`, or `0x…` for
// generated code) and from V8's perf map for generated code (`JS:*handle /…/node_modules/router/index.js:150:43`: the tier mark,
// the name, the script and its position). A JavaScript function's package is the last `node_modules/` folder of its script's path;
// the layers are listed once here, first match wins, so a new layer is one entry.
import { COLLECTOR_FUNCTIONS } from './collector-split.js'
import { COMPILER_FUNCTIONS } from './compiler-split.js'

/**
 * @typedef {object} LayerContext what a count knows of the SUT, to tell its layers apart
 * @property {ReadonlySet<string>} frameworkPackages the SUT package's own dependencies (express), apart from dyno's
 * @property {ReadonlySet<string>} routeWorkPackages the shared work's dependencies (the database drivers)
 * @property {readonly string[]} routeWorkDirs the shared work's folders (scenarios/src/work/, scenarios/src/data/)
 * @property {string} rootDir the SUT's workspace (its checkout): scripts under it are named from it, so that two checkouts' match
 *
 * @typedef {object} CodeFunction one function of a count, its tier marks and addresses merged
 * @property {string} key what two counts match it by: the name and, for JavaScript, its script (and its line where it has no name), so
 *   that a function moved within its file by a release or a commit is still the same function
 * @property {string} name
 * @property {string | null} file a JavaScript function's script: `node:_http_outgoing`, a package's from the package on
 *   (`express/lib/response.js`), a script of the SUT's workspace from the workspace on, else its path; null for native code
 * @property {number | null} line
 * @property {string | null} package the node_modules package its script is in
 * @property {boolean} javascript whether it is a JavaScript function: the code its native callees are charged to
 * @property {string | null} path a JavaScript function's script as the runtime named it (not kept in a result: it holds this machine's
 *   folders)
 * @property {LayerName} layer
 *
 * @typedef {'route-work' | 'app' | 'framework' | 'dependencies' | 'node' | 'collector' | 'compiler' | 'runtime'} LayerName
 */

/** @type {readonly { name: LayerName, label: string, holds: (fn: Omit<CodeFunction, 'layer'>, context: LayerContext) => boolean }[]} */
export const CODE_LAYERS = Object.freeze([
  {
    name: 'route-work',
    label: 'the route\'s work (the shared module and its drivers)',
    holds: (fn, context) =>
      (fn.package !== null && context.routeWorkPackages.has(fn.package)) ||
      (fn.package === null && fn.path !== null && context.routeWorkDirs.some((dir) => fn.path?.startsWith(dir)))
  },
  { name: 'node', label: 'Node\'s own JavaScript (node:http, streams, events)', holds: (fn) => fn.file?.startsWith('node:') ?? false },
  { name: 'app', label: 'the SUT\'s own code (its app and the contract\'s routes)', holds: (fn) => fn.javascript && fn.package === null },
  {
    name: 'framework',
    label: 'the framework\'s own package',
    holds: (fn, context) => fn.package !== null && context.frameworkPackages.has(fn.package)
  },
  { name: 'dependencies', label: 'the framework\'s dependencies', holds: (fn) => fn.package !== null },
  { name: 'collector', label: 'V8\'s garbage collector', holds: (fn) => COLLECTOR_FUNCTIONS.test(fn.name) },
  { name: 'compiler', label: 'V8\'s compilers and deoptimizer', holds: (fn) => COMPILER_FUNCTIONS.test(fn.name) },
  { name: 'runtime', label: 'the native runtime not called from JavaScript (event loop, V8, libc)', holds: () => true }
])

/** @type {ReadonlyMap<string, string>} */
export const LAYER_LABELS = new Map(CODE_LAYERS.map((layer) => [layer.name, layer.label]))

/** `JS:*name script:line:column`; the tier mark (`~` interpreted, `^` Sparkplug, `+` Maglev, `*` TurboFan) is dropped. */
const SCRIPT_CODE = /^(?:JS|Eval|Script|Function|LazyCompile):[~^+*]?(.*?) ?((?:file:\/\/|node:|\/)\S*?)(?::(\d+))?(?::\d+)?$/

/**
 * @param {string} name a callgrind function name, already resolved through the perf map where it was an address
 * @param {LayerContext} context
 * @returns {CodeFunction}
 */
export function describeFunction (name, context) {
  const script = SCRIPT_CODE.exec(name)
  /** @type {Omit<CodeFunction, 'layer'>} */
  const fn = script
    ? javascriptFunction(script[1], script[2].replace(/^file:\/\//, ''), script[3], context)
    : { key: nativeName(name), name: nativeName(name), file: null, line: null, package: null, javascript: false, path: null }
  const layer = CODE_LAYERS.find((candidate) => candidate.holds(fn, context))
  return { ...fn, layer: layer?.name ?? 'runtime' }
}

/**
 * @param {string} name @param {string} path @param {string | undefined} line @param {LayerContext} context
 * @returns {Omit<CodeFunction, 'layer'>}
 */
function javascriptFunction (name, path, line, context) {
  const position = line === undefined ? null : Number(line)
  const file = shownPath(path, context.rootDir)
  const onePerLine = !name && position !== null
  return {
    key: `${name || '(anonymous)'} ${file}${onePerLine ? `:${position}` : ''}`,
    name: name || '(anonymous)',
    file,
    line: position,
    package: packageOf(path),
    javascript: true,
    path
  }
}

/** @param {string} path @param {string} rootDir @returns {string} */
function shownPath (path, rootDir) {
  const at = path.lastIndexOf('/node_modules/')
  if (at >= 0) return path.slice(at + '/node_modules/'.length)
  return rootDir && path.startsWith(rootDir) ? path.slice(rootDir.length) : path
}

/** @param {string} file @returns {string | null} the package of a script under node_modules (`@scope/name` or `name`) */
export function packageOf (file) {
  const at = file.lastIndexOf('/node_modules/')
  if (at < 0) return null
  const [first, second] = file.slice(at + '/node_modules/'.length).split('/')
  if (!first || first === '.pnpm') return null
  return first.startsWith('@') && second ? `${first}/${second}` : first
}

/** The longest native name kept: template arguments can run to kilobytes. */
const NATIVE_NAME_MAX_CHARS = 240

/**
 * A C++ function's qualified name, without the return type callgrind writes before it (`void v8::internal::X<…>::Visit(…)`), cut to
 * NATIVE_NAME_MAX_CHARS.
 * @param {string} name @returns {string}
 */
export function nativeName (name) {
  let depth = 0
  let start = 0
  for (let index = 0; index < name.length; index++) {
    const char = name[index]
    if (char === '<') depth += 1
    else if (char === '>') depth -= 1
    else if (char === '(' && depth === 0) break
    else if (char === ' ' && depth === 0) start = index + 1
  }
  return name.slice(start, start + NATIVE_NAME_MAX_CHARS)
}

// @ts-check
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DynoError } from '../../platform/errors.js'
import { PACKAGES_DIR } from '../../platform/paths.js'
import { frameworkVersion } from './framework-version.js'

const SUT_PACKAGE_PREFIX = '@dyno/sut-'

/**
 * @typedef {object} SutDescriptor everything the harness needs to start and describe one SUT
 * @property {string} name short name, e.g. `fastify` (the package name without `@dyno/sut-`)
 * @property {string} packageName
 * @property {string} dir the package directory (the SUT's working directory)
 * @property {string} startFile absolute path of the file `node` runs
 * @property {string} framework the npm package (or `node:<module>`) whose version is reported
 * @property {string | null} frameworkVersion the installed version, null when not installed
 * @property {string} validator what validates the validation scenario
 * @property {string | null} skipReason why this SUT cannot run here, or null
 * @property {Record<string, string>} unsupportedScenarios scenarios the framework cannot serve as the contract says, each with the concrete
 *   reason
 * @property {SutRuntimeKind} runtimeKind `node`: any Node-compatible runtime runs `startFile` (the runtime matrix applies);
 *   `bun` / `deno`: only that runtime; `go` / `python`: `command` runs the built server
 * @property {string[] | null} command go / python: the server's argv, the first entry resolved against the package
 * @property {string | null} buildScript a Node script that builds the SUT (idempotent), run before first use
 * @property {string | null} buildManifest the JSON file the build writes: `{ ok, skipReason?, frameworkVersion?, runtimeVersion? }`
 * @property {boolean} supportsWorkers whether the server honours WORKERS=N
 * @property {Record<string, string>} unsupportedRuntimes runtimes the SUT cannot run on correctly, each with the reason
 * @property {string} label how results name it: the name, plus the runtime when a run sets runtimes side by side
 * @property {{ name: string, kind: string, version: string | null }} runtime what runs it (resolved per run)
 * @property {SutLaunch | null} launch how to start it; null until resolved (always set for `node` SUTs on the harness's Node)
 * @property {number} workers server workers (WORKERS), 1 unless --workers says otherwise
 * @property {import('../variants/variant-subjects.js').Variant | null} [variant] a variant of the framework (`express@4.21.2`):
 *   this descriptor is the SUT package's cached copy installed with it
 * @property {string | null} [installFailure] a variant whose copy could not be installed: why (its rows fail with it)
 * @property {SutReadiness} [readiness] how dyno knows it listens: its ready line unless this says otherwise
 * @property {Record<string, string>} [env] variables of its own, set before dyno's
 * @property {Record<string, string>} [serviceVariables] a service's address in another variable than dyno's (`DATABASE_URL` → `PG_URL`)
 *
 * @typedef {{ kind: 'line' } | { kind: 'probe', path: string, status: number | null, port: 'env' | number }} SutReadiness probe: a GET
 *   of `path` answers (with `status`, when given); port: dyno passes a free one in PORT, or the one the service always listens on
 *
 * @typedef {'node' | 'bun' | 'deno' | 'go' | 'python' | 'command'} SutRuntimeKind command: a service's own command (`--app`)
 * @typedef {{ command: string, args: string[], eventLoopProbe: boolean }} SutLaunch eventLoopProbe: the runtime honours
 *   NODE_OPTIONS=--import
 */

/** Runtimes a SUT package may name in `dyno.runtime`. */
export const SUT_RUNTIME_KINDS = /** @type {const} */ (['node', 'bun', 'deno', 'go', 'python'])
/** Kinds that run a JS start file. */
const JS_KINDS = ['node', 'bun', 'deno']

/**
 * Reads one SUT package: its package.json must carry a `dyno` field with `framework` and `start`.
 * @param {string} dir
 * @returns {SutDescriptor}
 */
export function loadSut (dir) {
  const manifestPath = join(dir, 'package.json')
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'))
  const meta = manifest.dyno
  if (typeof manifest.name !== 'string' || !manifest.name.startsWith(SUT_PACKAGE_PREFIX)) {
    throw new DynoError(
      'DYNO_ERR_SUT_PACKAGE',
      `${manifestPath}: the package name must start with \`${SUT_PACKAGE_PREFIX}\`, got \`${manifest.name}\``
    )
  }
  const runtimeKind = meta?.runtime ?? 'node'
  if (!SUT_RUNTIME_KINDS.includes(runtimeKind)) {
    throw new DynoError('DYNO_ERR_SUT_PACKAGE',
      `${manifestPath}: \`dyno.runtime\` must be one of ${SUT_RUNTIME_KINDS.join(', ')}, got \`${JSON.stringify(runtimeKind)}\``)
  }
  const isJs = JS_KINDS.includes(runtimeKind)
  for (const field of isJs ? ['framework', 'start'] : ['framework']) {
    if (typeof meta?.[field] !== 'string' || meta[field] === '') {
      throw new DynoError(
        'DYNO_ERR_SUT_PACKAGE',
        `${manifestPath}: \`dyno.${field}\` must be a non-empty string, got \`${JSON.stringify(meta?.[field])}\``
      )
    }
  }
  const command = isJs ? null : readCommand(manifestPath, dir, meta.command)
  const name = manifest.name.slice(SUT_PACKAGE_PREFIX.length)
  const startFile = isJs ? join(dir, meta.start) : join(dir, /** @type {string[]} */ (command)[0])
  return {
    name,
    packageName: manifest.name,
    dir,
    startFile,
    framework: meta.framework,
    frameworkVersion: isJs ? frameworkVersion(dir, meta.framework) : builtFrameworkVersion(dir, meta.buildManifest),
    validator: typeof meta.validator === 'string' ? meta.validator : 'none',
    skipReason: typeof meta.skip === 'string' ? meta.skip : null,
    unsupportedScenarios: readReasons(manifestPath, 'unsupportedScenarios', meta.unsupportedScenarios),
    runtimeKind,
    command,
    buildScript: optionalPath(manifestPath, dir, 'build', meta.build),
    buildManifest: optionalPath(manifestPath, dir, 'buildManifest', meta.buildManifest),
    supportsWorkers: meta.workers === true,
    unsupportedRuntimes: readReasons(manifestPath, 'unsupportedRuntimes', meta.unsupportedRuntimes),
    label: name,
    runtime: runtimeKind === 'node'
      ? { name: 'node', kind: 'node', version: process.version }
      : { name: runtimeKind, kind: runtimeKind, version: null },
    launch: runtimeKind === 'node' ? { command: process.execPath, args: [startFile], eventLoopProbe: true } : null,
    workers: 1
  }
}

/**
 * The framework version a SUT's last build recorded (Go modules, Python wheels), null before a build.
 * @param {string} dir @param {unknown} buildManifest
 * @returns {string | null}
 */
function builtFrameworkVersion (dir, buildManifest) {
  if (typeof buildManifest !== 'string') return null
  try {
    const version = JSON.parse(readFileSync(join(dir, buildManifest), 'utf8')).frameworkVersion
    return typeof version === 'string' ? version : null
  } catch {
    return null
  }
}

/**
 * @param {string} manifestPath @param {string} dir
 * @param {unknown} value `dyno.command`: a non-empty array of strings
 * @returns {string[]} the argv, its first entry resolved against the package directory
 */
function readCommand (manifestPath, dir, value) {
  if (!Array.isArray(value) || value.length === 0 || !value.every((part) => typeof part === 'string' && part !== '')) {
    throw new DynoError('DYNO_ERR_SUT_PACKAGE',
      `${manifestPath}: \`dyno.command\` must be a non-empty array of strings (the server's argv), got \`${JSON.stringify(value)}\``)
  }
  return [join(dir, value[0]), ...value.slice(1)]
}

/**
 * @param {string} manifestPath @param {string} dir @param {string} field @param {unknown} value
 * @returns {string | null}
 */
function optionalPath (manifestPath, dir, field, value) {
  if (value === undefined) return null
  if (typeof value !== 'string' || value === '') {
    throw new DynoError(
      'DYNO_ERR_SUT_PACKAGE',
      `${manifestPath}: \`dyno.${field}\` must be a path inside the package, got \`${JSON.stringify(value)}\``
    )
  }
  return join(dir, value)
}

/**
 * @param {string} manifestPath
 * @param {string} field `unsupportedScenarios` / `unsupportedRuntimes`
 * @param {unknown} value name → the reason, as seen
 * @returns {Record<string, string>}
 */
function readReasons (manifestPath, field, value) {
  if (value === undefined) return {}
  const valid = value !== null && typeof value === 'object' && !Array.isArray(value) &&
    Object.values(value).every((reason) => typeof reason === 'string' && reason.length > 0)
  if (!valid) {
    throw new DynoError(
      'DYNO_ERR_SUT_PACKAGE',
      `${manifestPath}: \`dyno.${field}\` must map names to reasons, got \`${JSON.stringify(value)}\``
    )
  }
  return /** @type {Record<string, string>} */ (value)
}

/**
 * Every SUT package under `packagesDir`, sorted by name.
 * @param {string} [packagesDir]
 * @returns {SutDescriptor[]}
 */
export function discoverSuts (packagesDir = PACKAGES_DIR) {
  return readdirSync(packagesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(packagesDir, entry.name, 'package.json')))
    .map((entry) => loadSut(join(packagesDir, entry.name)))
    .sort((a, b) => a.name.localeCompare(b.name))
}

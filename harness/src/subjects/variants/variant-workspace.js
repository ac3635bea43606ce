// @ts-check
// A variant's own copy of its SUT package, never the user's tree: a small pnpm workspace in the cache holding a copy of the
// SUT package (its framework dependency, and the packages that must move with it, set to the variant) and a copy of the shared
// scenarios, installed from this repository's lockfile, so that every other dependency resolves as it does here. Kept while its
// inputs are the same (the SUT's and the scenarios' files, the lockfile, the variant, Node), made again when one changes.
import { fileHash, treeHash } from '../../platform/util/content-hash.js'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import semver from 'semver'
import { DynoError } from '../../platform/errors.js'
import { REPO_ROOT } from '../../platform/paths.js'
import { makeDirectory } from '../../platform/util/checked-paths.js'
import { packedIntegrity } from './packed-integrity.js'
import { runInstaller } from './run-installer.js'

/** What a copy never takes: installs, builds, and what git keeps. */
const NOT_COPIED = new Set(['node_modules', 'dist', '.venv', 'bin', '.turbo', '.git', 'go', 'python'])
/** The workspace packages a SUT package may depend on, and where they are. */
const SHARED_PACKAGES = { '@dyno/scenarios': 'scenarios', '@dyno/scenarios-nestjs': 'scenarios/nestjs' }
/** The settings of this repository's pnpm-workspace.yaml a variant's workspace keeps (the others name packages it does not have). */
const KEPT_SETTINGS = ['catalog', 'overrides', 'onlyBuiltDependencies', 'packageExtensions', 'managePackageManagerVersions']
const STAMP = '.dyno-variant.json'

/**
 * @param {{ sut: import('../suts/discover-suts.js').SutDescriptor, resolved: import('./resolve-variant.js').ResolvedVariant, cacheDir:
 *   string, signal?: AbortSignal, onLine?: (line: string) => void }} request
 * @returns {Promise<{ dir: string, reused: boolean }>} dir: the SUT package's copy, installed
 * @throws {DynoError} DYNO_ERR_VARIANT_INSTALL with the installer's last lines
 */
export async function installVariant ({ sut, resolved, cacheDir, signal, onLine = () => {} }) {
  const manifest = JSON.parse(readFileSync(join(sut.dir, 'package.json'), 'utf8'))
  const shared = Object.entries(SHARED_PACKAGES).filter(([name]) => manifest.dependencies?.[name])
  const key = createHash('sha256').update(JSON.stringify({
    sut: treeHash(sut.dir, copiedNot),
    shared: shared.map(([, dir]) => treeHash(join(REPO_ROOT, dir), copiedNot)),
    lockfile: fileHash(join(REPO_ROOT, 'pnpm-lock.yaml')),
    workspace: fileHash(join(REPO_ROOT, 'pnpm-workspace.yaml')),
    // A checkout's key is what its package would publish, build output included (packed-integrity.js).
    variant: resolved.kind === 'npm'
      ? { version: resolved.version, integrity: resolved.integrity }
      : { dir: resolved.dir, packed: packedIntegrity(resolved.dir ?? '') },
    node: process.version
  })).digest('hex').slice(0, 16)
  const workspace = join(cacheDir, 'variants', `${sut.name}@${resolved.kind === 'npm' ? resolved.version : 'path'}-${key}`)
  const dir = join(workspace, 'packages', sut.name)
  if (existsSync(join(workspace, STAMP))) return { dir, reused: true }

  rmSync(workspace, { recursive: true, force: true })
  makeDirectory(workspace)
  const moved = movedDependencies(manifest, resolved)
  for (const [, from] of shared) {
    copyTree(join(REPO_ROOT, from), join(workspace, from))
    // A shared package that depends on what moves with the framework moves too: one copy of each in the workspace.
    const sharedManifest = JSON.parse(readFileSync(join(workspace, from, 'package.json'), 'utf8'))
    const dependencies = Object.fromEntries(
      Object.entries(sharedManifest.dependencies ?? {}).map(([name, range]) => [name, moved[name] ?? range])
    )
    writeFileSync(join(workspace, from, 'package.json'), JSON.stringify({ ...sharedManifest, dependencies }, null, 2) + '\n')
  }
  copyTree(sut.dir, dir)
  writeFileSync(join(dir, 'package.json'), JSON.stringify(variantManifest(manifest, sut.framework, resolved), null, 2) + '\n')
  writeFileSync(join(workspace, 'package.json'), JSON.stringify({ name: 'dyno-variant', private: true }, null, 2) + '\n')
  writeFileSync(join(workspace, 'pnpm-workspace.yaml'), workspaceFile([`packages/${sut.name}`, ...shared.map(([, from]) => from)]))
  cpSync(join(REPO_ROOT, 'pnpm-lock.yaml'), join(workspace, 'pnpm-lock.yaml'))

  // Not frozen: the lockfile gains the variant's framework; every other package keeps the version it has here.
  await runInstaller('pnpm', ['install', '--prefer-offline', '--no-frozen-lockfile', '--reporter', 'append-only'], {
    cwd: workspace, signal, onLine
  })
  const installed = JSON.parse(readFileSync(join(dir, 'node_modules', sut.framework, 'package.json'), 'utf8')).version
  if (installed !== resolved.version) {
    throw new DynoError(
      'DYNO_ERR_VARIANT_INSTALL',
      `${workspace}: ${sut.framework} ${installed} was installed where ${resolved.version} was asked for`
    )
  }
  writeFileSync(join(workspace, STAMP), JSON.stringify({ key, framework: sut.framework, ...resolved }, null, 2) + '\n')
  return { dir, reused: false }
}

/**
 * The SUT's package.json with its framework, and the packages its `dyno.moveWith` names, set to the variant.
 * `moveWith`: `{ "<package>": "same" }` or `{ "<package>": { "<framework major>": "<version>" } }`.
 * @param {any} manifest @param {string} framework @param {import('./resolve-variant.js').ResolvedVariant} resolved
 */
export function variantManifest (manifest, framework, resolved) {
  const dependencies = {
    ...manifest.dependencies,
    ...movedDependencies(manifest, resolved),
    [framework]: resolved.kind === 'npm' ? resolved.version : `file:${resolved.dir}`
  }
  return { ...manifest, dependencies }
}

/**
 * The versions `dyno.moveWith` gives the packages that move with the framework, for this variant: `same` (the newest release of
 * the package in the framework's major, not newer than it) or a version per major of the framework. A rule with no version for
 * the variant's major (and `same` for a checkout) leaves the package as the SUT pins it.
 * @param {any} manifest @param {import('./resolve-variant.js').ResolvedVariant} resolved
 * @returns {Record<string, string>}
 */
function movedDependencies (manifest, resolved) {
  /** @type {Record<string, string>} */
  const moved = {}
  for (const [name, rule] of Object.entries(manifest.dyno?.moveWith ?? {})) {
    const version = rule === 'same'
      // The newest of the package's own releases in the framework's major, none newer than the framework (they are released together).
      ? (resolved.kind === 'npm' ? `>=${semver.major(resolved.version)}.0.0 <=${resolved.version}` : null)
      : rule[String(semver.major(semver.coerce(resolved.version) ?? '0.0.0'))]
    if (version) moved[name] = version
  }
  return moved
}

/** @param {string[]} packages @returns {string} the variant workspace's pnpm-workspace.yaml */
function workspaceFile (packages) {
  const text = readFileSync(join(REPO_ROOT, 'pnpm-workspace.yaml'), 'utf8')
  // Top-level blocks: a key at the start of a line, with the indented or commented lines under it.
  const blocks = text.split(/\n(?=[A-Za-z])/).map((block) => ({ key: block.split(':')[0], block }))
  const kept = blocks.filter(({ key }) => KEPT_SETTINGS.includes(key)).map(({ block }) => block.trimEnd())
  return [`packages:\n${packages.map((path) => `  - ${path}`).join('\n')}`, ...kept].join('\n\n') + '\n'
}

/** @param {string} from @param {string} to */
export function copyTree (from, to) {
  cpSync(from, to, {
    recursive: true,
    filter: (source) => source === from || !NOT_COPIED.has(relative(from, source).split('/').pop() ?? '')
  })
}

/** @param {string} name @returns {boolean} an entry a copy of a SUT package (or of a service) leaves out, and so its key */
export const copiedNot = (name) => NOT_COPIED.has(name)

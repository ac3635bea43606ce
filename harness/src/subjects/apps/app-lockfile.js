// @ts-check
// The lockfile a service's copy is installed with: its own, or, for a package of a workspace, the workspace's, made the lockfile of a
// project of its own that is the service alone (its importer for pnpm, its package and what is installed for it for npm). Either way
// every other dependency resolves as it does for the service.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml'
import { DynoError } from '../../platform/errors.js'

const PNPM_INSTALL = ['install', '--no-frozen-lockfile', '--prefer-offline', '--reporter', 'append-only']

/**
 * @typedef {object} LockfileKind how a copy holding it is installed: the command's steps in order (not frozen: the lockfile gains the
 *   variant's version; every other package keeps the one it has)
 * @property {string} file its name
 * @property {'pnpm' | 'npm'} command
 * @property {string[][]} steps
 * @property {(root: string) => boolean} isWorkspace whether a directory holding it is a workspace's root
 * @property {(text: string, member: string, where: string) => string} alone the workspace's lockfile as the lockfile of its member
 *   alone (member: the service's path in the workspace, with `/`)
 *
 * @typedef {{ file: string, source: string, kind: LockfileKind, member: string | null }} Lockfile file: as the service's directory
 *   sees it (`pnpm-lock.yaml`, or `../../pnpm-lock.yaml` for a workspace's); source: its full path; member: the service's path in
 *   the workspace, null: its own
 */

/** The lockfiles a service's copy is installed with, in the order they are looked for. @type {readonly LockfileKind[]} */
const LOCKFILES = Object.freeze([
  {
    file: 'pnpm-lock.yaml',
    command: 'pnpm',
    steps: [PNPM_INSTALL],
    isWorkspace: (root) => existsSync(join(root, 'pnpm-workspace.yaml')),
    alone: pnpmAlone
  },
  {
    file: 'package-lock.json',
    command: 'npm',
    // --install-links: a checkout is installed as its package would be, with its own dependencies, not linked to its tree.
    steps: [['install', '--prefer-offline', '--no-audit', '--no-fund', '--install-links']],
    isWorkspace: declaresWorkspaces,
    alone: npmAlone
  },
  {
    file: 'yarn.lock',
    command: 'pnpm',
    // pnpm reads yarn's lockfile (v1 and berry) into its own, keeping each version yarn resolved that the manifest still allows.
    steps: [['import'], PNPM_INSTALL],
    isWorkspace: declaresWorkspaces,
    // yarn's entries are keyed by name and range, not by package: the whole file serves any one of the workspace's packages.
    alone: (text) => text
  }
])

/** How a service without a lockfile is installed: by pnpm, its dependencies resolved anew. */
export const NO_LOCKFILE = LOCKFILES[0]

/**
 * The service's own lockfile, or else the one of the nearest workspace above it that holds it, up to its repository's root.
 * @param {string} dir the service's real directory
 * @returns {Lockfile | null} null: none (the copy is installed by pnpm without one)
 */
export function appLockfile (dir) {
  const own = LOCKFILES.find(({ file }) => existsSync(join(dir, file)))
  if (own) return { file: own.file, source: join(dir, own.file), kind: own, member: null }
  for (let root = dir; !existsSync(join(root, '.git')) && dirname(root) !== root;) {
    root = dirname(root)
    const kind = LOCKFILES.find(({ file }) => existsSync(join(root, file)))
    if (!kind) continue
    if (!kind.isWorkspace(root)) return null
    const member = relative(root, dir).split(sep).join('/')
    return { file: relative(dir, join(root, kind.file)), source: join(root, kind.file), kind, member }
  }
  return null
}

/**
 * Writes the lockfile into the service's copy: a workspace's made the service's alone (its own came with the copy).
 * @param {Lockfile} lockfile @param {string} copy
 * @throws {DynoError} DYNO_ERR_VARIANT_INSTALL: the workspace's lockfile does not hold the service, or the service needs another
 *   package of its workspace
 */
export function writeLockfileInto (lockfile, copy) {
  if (lockfile.member === null) return
  const text = readFileSync(lockfile.source, 'utf8')
  writeFileSync(join(copy, lockfile.kind.file), lockfile.kind.alone(text, lockfile.member, lockfile.source))
}

/** @param {string} root @returns {boolean} its package.json declares workspaces (npm, yarn) */
function declaresWorkspaces (root) {
  try {
    return Boolean(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).workspaces)
  } catch {
    return false
  }
}

/**
 * A pnpm workspace's lockfile as the lockfile of one of its importers alone: that importer made the root, the others left out (pnpm
 * drops the packages only they used).
 * @param {string} text @param {string} member @param {string} where the lockfile's path, for the error
 */
function pnpmAlone (text, member, where) {
  const lock = parseYaml(text, { maxAliasCount: 100 })
  const importer = lock?.importers?.[member]
  if (!importer || !Object.hasOwn(lock.importers, member)) throw notHeld(where, member)
  const siblings = ['dependencies', 'devDependencies', 'optionalDependencies']
    .flatMap((group) => Object.entries(importer[group] ?? {}))
    .filter(([, { version }]) => String(version).startsWith('link:'))
    .map(([name]) => name)
  if (siblings.length > 0) throw needsWorkspace(where, member, siblings)
  return stringifyYaml({ ...lock, importers: { '.': importer } })
}

/**
 * An npm workspace's lockfile as the lockfile of one of its packages alone: that package made the root, what is installed for it
 * alone (under its own node_modules) put where the root's would be, and the other packages and their links left out.
 * @param {string} text @param {string} member @param {string} where the lockfile's path, for the error
 */
function npmAlone (text, member, where) {
  const lock = JSON.parse(text)
  const packages = lock?.packages ?? {}
  const own = Object.hasOwn(packages, member) ? packages[member] : null
  if (!own) throw notHeld(where, member)
  /** @type {Record<string, unknown>} */
  const kept = { '': own }
  const ownPrefix = `${member}/node_modules/`
  for (const [path, entry] of Object.entries(packages)) {
    if (path.startsWith('node_modules/') && !entry.link && !Object.hasOwn(kept, path)) kept[path] = entry
  }
  for (const [path, entry] of Object.entries(packages)) {
    if (path.startsWith(ownPrefix) && !entry.link) kept[`node_modules/${path.slice(ownPrefix.length)}`] = entry
  }
  const needed = Object.keys({ ...own.dependencies, ...own.devDependencies, ...own.optionalDependencies })
  const installedFor = (/** @type {string} */ name) => packages[`${ownPrefix}${name}`] ?? packages[`node_modules/${name}`]
  const siblings = needed.filter((name) => installedFor(name)?.link === true)
  if (siblings.length > 0) throw needsWorkspace(where, member, siblings)
  return JSON.stringify({ name: own.name, version: own.version, lockfileVersion: lock.lockfileVersion, requires: true, packages: kept },
    null, 2) + '\n'
}

/** @param {string} where @param {string} member */
const notHeld = (where, member) => new DynoError('DYNO_ERR_VARIANT_INSTALL',
  `${where} holds no package at ${member}, the service's place in its workspace: install the workspace, then compare again`)

/** @param {string} where @param {string} member @param {string[]} siblings */
const needsWorkspace = (where, member, siblings) => new DynoError('DYNO_ERR_VARIANT_INSTALL',
  `${member} needs ${siblings.join(', ')} from its own workspace (${where}); dyno installs a copy of the service alone, so a ` +
  'service that needs other packages of its workspace cannot be given another version of a dependency yet')

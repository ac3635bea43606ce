// @ts-check
// A variant's own copy of a service, never the user's tree: its directory copied into the cache (without what is installed, built or
// kept by git), the one dependency set to the variant's version, and installed with the service's own lockfile, so that every other
// dependency resolves as it does for the service. Kept while its inputs are the same (the service's files, its lockfile, the variant,
// Node), made again when one changes.
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DynoError } from '../../platform/errors.js'
import { makeDirectory } from '../../platform/util/checked-paths.js'
import { fileHash, treeHash } from '../../platform/util/content-hash.js'
import { runInstaller } from '../variants/run-installer.js'
import { copiedNot, copyTree } from '../variants/variant-workspace.js'

const STAMP = '.dyno-variant.json'
const PNPM_INSTALL = ['install', '--no-frozen-lockfile', '--prefer-offline', '--reporter', 'append-only']

/**
 * @typedef {{ file: string, command: 'pnpm' | 'npm', args: string[] }} Lockfile how a copy holding it is installed (not frozen: the
 *   lockfile gains the variant's version; every other package keeps the one it has)
 */

/** The lockfiles a service's copy is installed with, in the order they are looked for. @type {readonly Lockfile[]} */
const LOCKFILES = Object.freeze([
  { file: 'pnpm-lock.yaml', command: 'pnpm', args: PNPM_INSTALL },
  { file: 'package-lock.json', command: 'npm', args: ['install', '--prefer-offline', '--no-audit', '--no-fund'] }
])

/** @param {string} dir the service's @returns {Lockfile | null} its lockfile, null: none (the copy is installed by pnpm without one) */
export const appLockfile = (dir) => LOCKFILES.find(({ file }) => existsSync(join(dir, file))) ?? null

/**
 * @param {{ name: string, dir: string, dependency: string, resolved: import('../variants/resolve-variant.js').ResolvedVariant,
 *   cacheDir: string, signal?: AbortSignal, onLine?: (line: string) => void }} request name, dir: the service's
 * @returns {Promise<{ dir: string, reused: boolean }>} dir: the copy, installed
 * @throws {DynoError} DYNO_ERR_VARIANT_INSTALL with the installer's last lines, or naming the version installed instead
 */
export async function installAppVariant ({ name, dir, dependency, resolved, cacheDir, signal, onLine = () => {} }) {
  const lockfile = appLockfile(dir)
  const key = createHash('sha256').update(JSON.stringify({
    app: treeHash(dir, copiedNot),
    lockfile: lockfile ? fileHash(join(dir, lockfile.file)) : null,
    variant: { dependency, version: resolved.version, integrity: resolved.integrity },
    node: process.version
  })).digest('hex').slice(0, 16)
  const copy = join(cacheDir, 'app-variants', `${name}-${dependency}@${resolved.version}-${key}`.replace(/[^A-Za-z0-9@._-]/g, '_'))
  if (existsSync(join(copy, STAMP))) return { dir: copy, reused: true }

  rmSync(copy, { recursive: true, force: true })
  makeDirectory(copy)
  copyTree(dir, copy)
  const manifest = JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8'))
  const dependencies = { ...manifest.dependencies, [dependency]: resolved.version }
  writeFileSync(join(copy, 'package.json'), JSON.stringify({ ...manifest, dependencies }, null, 2) + '\n')
  const { command, args } = lockfile ?? LOCKFILES[0]
  // A copy is a project of its own, never a package of a workspace the cache happens to be in.
  const alone = command === 'pnpm' && !existsSync(join(copy, 'pnpm-workspace.yaml')) ? ['--ignore-workspace'] : []
  await runInstaller(command, [...args, ...alone], { cwd: copy, signal, onLine })
  const installedManifest = join(copy, 'node_modules', dependency, 'package.json')
  const installed = existsSync(installedManifest) ? JSON.parse(readFileSync(installedManifest, 'utf8')).version : 'nothing'
  if (installed !== resolved.version) {
    throw new DynoError(
      'DYNO_ERR_VARIANT_INSTALL',
      `${copy}: ${dependency} ${installed} was installed where ${resolved.version} was asked for`
    )
  }
  writeFileSync(join(copy, STAMP), JSON.stringify({ key, dependency, lockfile: lockfile?.file ?? null, ...resolved }, null, 2) + '\n')
  return { dir: copy, reused: false }
}

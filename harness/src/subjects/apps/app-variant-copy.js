// @ts-check
// A variant's own copy of a service, never the user's tree: its directory copied into the cache (without what is installed, built or
// kept by git), the one dependency set to the variant's version, and installed with the service's own lockfile (or its workspace's,
// app-lockfile.js), so that every other dependency resolves as it does for the service. Kept while its inputs are the same (the
// service's files, its lockfile, the variant, Node), made again when one changes.
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DynoError } from '../../platform/errors.js'
import { makeDirectory } from '../../platform/util/checked-paths.js'
import { fileHash, treeHash } from '../../platform/util/content-hash.js'
import { appLockfile, NO_LOCKFILE, writeLockfileInto } from './app-lockfile.js'
import { packedIntegrity } from '../variants/packed-integrity.js'
import { runInstaller } from '../variants/run-installer.js'
import { copiedNot, copyTree } from '../variants/variant-workspace.js'

const STAMP = '.dyno-variant.json'

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
    lockfile: lockfile ? fileHash(lockfile.source) : null,
    // A checkout's key is what its package would publish (packed-integrity.js): an edit there makes a new copy.
    variant: resolved.kind === 'npm'
      ? { dependency, version: resolved.version, integrity: resolved.integrity }
      : { dependency, dir: resolved.dir, packed: packedIntegrity(resolved.dir ?? '') },
    node: process.version
  })).digest('hex').slice(0, 16)
  const variantName = `${dependency}@${resolved.kind === 'npm' ? resolved.version : 'path'}`
  const copy = join(cacheDir, 'app-variants', `${name}-${variantName}-${key}`.replace(/[^A-Za-z0-9@._-]/g, '_'))
  if (existsSync(join(copy, STAMP))) return { dir: copy, reused: true }

  rmSync(copy, { recursive: true, force: true })
  makeDirectory(copy)
  copyTree(dir, copy)
  const manifest = JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8'))
  const dependencies = { ...manifest.dependencies, [dependency]: resolved.kind === 'npm' ? resolved.version : `file:${resolved.dir}` }
  writeFileSync(join(copy, 'package.json'), JSON.stringify({ ...manifest, dependencies }, null, 2) + '\n')
  if (lockfile) writeLockfileInto(lockfile, copy)
  const { command, steps } = lockfile?.kind ?? NO_LOCKFILE
  // A copy is a project of its own, never a package of a workspace the cache happens to be in.
  const alone = command === 'pnpm' && !existsSync(join(copy, 'pnpm-workspace.yaml')) ? ['--ignore-workspace'] : []
  for (const args of steps) await runInstaller(command, [...args, ...alone], { cwd: copy, signal, onLine })
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

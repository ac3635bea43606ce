// @ts-check
// A service that is a package of a pnpm or npm workspace has no lockfile of its own: its variant's copy is installed with the
// workspace's, made the lockfile of the service alone, so that the one dependency takes the variant's version and every other keeps
// the version the workspace resolved, not the newest its range allows. A service that needs another package of its workspace, or a
// workspace lockfile that does not hold it, is told by name. Installs from the registry; nothing is started.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { installAppVariant } from '../../../src/subjects/apps/app-variant-copy.js'

const FIXTURE = fileURLToPath(new URL('../../fixtures/apps/timed-service', import.meta.url))
const MS_INTEGRITY = 'sha512-6FlzubTLZG3J2a/NVCAleEhjzq5oxgHyaCU9yYXvcLsvoVaHJq/s5xXI6/XXP6tz7R9xAOtHnSO/tXtF3WRTlA=='
const BYTES_INTEGRITY = 'sha1-0ygVQE1olpn4Wk6k+odV3ROpYEg='
const MS_2_0_0 = {
  kind: /** @type {const} */ ('npm'),
  spec: '2.0.0',
  version: '2.0.0',
  integrity: 'sha512-Tpp60P6IUJDTuOq/5Z8cdskzJujfwqfOTkrwIwj7IRISpnkJnT6SyJ4PCPnGMoFjC9ddhal5KVIYtAt97ix05A=='
}

// bytes ^3.0.0 allows 3.1.x; the workspace resolved it to 3.0.0. apps/web is another package of the workspace.
const PNPM_LOCK = `lockfileVersion: '9.0'

settings:
  autoInstallPeers: true
  excludeLinksFromLockfile: false

importers:

  .: {}

  apps/api:
    dependencies:
      bytes:
        specifier: ^3.0.0
        version: 3.0.0
      ms:
        specifier: 2.1.3
        version: 2.1.3

  apps/web:
    dependencies:
      ms:
        specifier: 2.1.3
        version: 2.1.3

packages:

  bytes@3.0.0:
    resolution: {integrity: ${BYTES_INTEGRITY}}
    engines: {node: '>= 0.8'}

  ms@2.1.3:
    resolution: {integrity: ${MS_INTEGRITY}}

snapshots:

  bytes@3.0.0: {}

  ms@2.1.3: {}
`

const registryEntry = (/** @type {string} */ name, /** @type {string} */ version, /** @type {string} */ integrity) =>
  ({ version, resolved: `https://registry.npmjs.org/${name}/-/${name}-${version}.tgz`, integrity, license: 'MIT' })

const NPM_LOCK = {
  name: 'shop-workspace',
  lockfileVersion: 3,
  requires: true,
  packages: {
    '': { name: 'shop-workspace', workspaces: ['apps/*'] },
    'apps/api': { name: 'api', version: '1.0.0', dependencies: { bytes: '^3.0.0', ms: '2.1.3' } },
    'apps/web': { name: 'web', version: '1.0.0', dependencies: { ms: '2.1.3' } },
    'node_modules/api': { resolved: 'apps/api', link: true },
    'node_modules/web': { resolved: 'apps/web', link: true },
    'node_modules/bytes': { ...registryEntry('bytes', '3.0.0', BYTES_INTEGRITY), engines: { node: '>= 0.8' } },
    'node_modules/ms': registryEntry('ms', '2.1.3', MS_INTEGRITY)
  }
}

/**
 * A workspace in a repository of its own, with the timed service as its package apps/api.
 * @param {Record<string, string>} files the workspace root's files besides package.json
 * @param {Record<string, string>} [dependencies] the service's
 * @returns {{ work: string, app: string }}
 */
function workspace (files, dependencies = { bytes: '^3.0.0', ms: '2.1.3' }) {
  const work = mkdtempSync(join(tmpdir(), 'dyno-app-workspace-'))
  const root = join(work, 'repo')
  const app = join(root, 'apps', 'api')
  mkdirSync(join(root, '.git'), { recursive: true })
  cpSync(FIXTURE, app, { recursive: true })
  rmSync(join(app, 'pnpm-lock.yaml'))
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'api', version: '1.0.0', type: 'module', dependencies }))
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'shop-workspace', private: true, workspaces: ['apps/*'] }))
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text)
  return { work, app }
}

/** @param {{ work: string, app: string }} place */
async function installMs200 ({ work, app }) {
  const lines = /** @type {string[]} */ ([])
  const copy = await installAppVariant({
    name: 'api', dir: app, dependency: 'ms', resolved: MS_2_0_0, cacheDir: join(work, 'cache'), onLine: (line) => lines.push(line)
  })
  const installed = (/** @type {string} */ name) =>
    JSON.parse(readFileSync(join(copy.dir, 'node_modules', name, 'package.json'), 'utf8')).version
  return { copy, installed, lines }
}

describe('a service in a workspace', () => {
  it.each([
    ['pnpm', { 'pnpm-workspace.yaml': "packages: ['apps/*']\n", 'pnpm-lock.yaml': PNPM_LOCK }, 'pnpm-lock.yaml'],
    ['npm', { 'package-lock.json': JSON.stringify(NPM_LOCK, null, 2) }, 'package-lock.json']
  ])("has its variant installed with the %s workspace's lockfile, every other version as the workspace resolved it",
    async (_, files, lockfile) => {
      const place = workspace(files)
      const { copy, installed, lines } = await installMs200(place)
      expect(installed('ms'), lines.join('\n')).toBe('2.0.0')
      expect(installed('bytes'), 'the version the workspace locked, not the newest ^3.0.0 allows').toBe('3.0.0')
      expect(JSON.parse(readFileSync(join(copy.dir, '.dyno-variant.json'), 'utf8')).lockfile).toBe(`../../${lockfile}`)
      expect(existsSync(join(place.app, 'node_modules')), "the service's own directory is not installed into").toBe(false)
      expect(existsSync(join(place.app, lockfile)), 'no lockfile is written into the service').toBe(false)
      expect(readFileSync(join(place.work, 'repo', lockfile), 'utf8')).toBe(files[/** @type {keyof typeof files} */ (lockfile)])
    }, 120_000)

  it('that needs another package of its workspace is told so, by name, before anything is installed', async () => {
    const lock = PNPM_LOCK.replace('  apps/api:\n    dependencies:\n',
      '  apps/api:\n    dependencies:\n      web:\n        specifier: workspace:*\n        version: link:../web\n')
    const place = workspace({ 'pnpm-workspace.yaml': "packages: ['apps/*']\n", 'pnpm-lock.yaml': lock },
      { bytes: '^3.0.0', ms: '2.1.3', web: 'workspace:*' })
    await expect(installMs200(place)).rejects.toMatchObject({
      code: 'DYNO_ERR_VARIANT_INSTALL',
      message: expect.stringContaining('apps/api needs web from its own workspace')
    })
  })

  it("whose place the workspace's lockfile does not hold is told to install the workspace first", async () => {
    const { packages } = NPM_LOCK
    const { 'apps/api': _, ...others } = packages
    const place = workspace({ 'package-lock.json': JSON.stringify({ ...NPM_LOCK, packages: others }) })
    await expect(installMs200(place)).rejects.toMatchObject({
      code: 'DYNO_ERR_VARIANT_INSTALL',
      message: expect.stringContaining('holds no package at apps/api')
    })
  })
})

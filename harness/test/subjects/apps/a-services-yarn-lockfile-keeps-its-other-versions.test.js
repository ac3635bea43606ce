// @ts-check
// A service locked by yarn: a variant's copy is installed by pnpm from the service's yarn.lock (pnpm import), so that the one dependency
// takes the variant's version and every other keeps the version yarn resolved, not the newest its range allows. Installs from the
// registry; nothing is started.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { installAppVariant } from '../../../src/subjects/apps/app-variant-copy.js'

const FIXTURE = fileURLToPath(new URL('../../fixtures/apps/timed-service', import.meta.url))

// bytes ^3.0.0 allows 3.1.x; yarn resolved it to 3.0.0.
const YARN_LOCK = `# yarn lockfile v1


bytes@^3.0.0:
  version "3.0.0"
  resolved "https://registry.yarnpkg.com/bytes/-/bytes-3.0.0.tgz#d32815404d689699f85a4ea4fa8755dd13a96048"
  integrity sha1-0ygVQE1olpn4Wk6k+odV3ROpYEg=

ms@2.1.3:
  version "2.1.3"
  resolved "https://registry.yarnpkg.com/ms/-/ms-2.1.3.tgz#574c8138ce1d2b5861f0b44579dbadd60c6615b2"
  integrity sha512-6FlzubTLZG3J2a/NVCAleEhjzq5oxgHyaCU9yYXvcLsvoVaHJq/s5xXI6/XXP6tz7R9xAOtHnSO/tXtF3WRTlA==
`

describe('a service with a yarn.lock', () => {
  it('has its variant installed with the versions yarn resolved for everything else', async () => {
    const work = mkdtempSync(join(tmpdir(), 'dyno-app-yarn-'))
    const app = join(work, 'yarn-service')
    cpSync(FIXTURE, app, { recursive: true })
    rmSync(join(app, 'pnpm-lock.yaml'))
    const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'))
    writeFileSync(join(app, 'package.json'), JSON.stringify({ ...manifest, dependencies: { ms: '2.1.3', bytes: '^3.0.0' } }))
    writeFileSync(join(app, 'yarn.lock'), YARN_LOCK)

    const resolved = {
      kind: /** @type {const} */ ('npm'),
      spec: '2.0.0',
      version: '2.0.0',
      integrity: 'sha512-Tpp60P6IUJDTuOq/5Z8cdskzJujfwqfOTkrwIwj7IRISpnkJnT6SyJ4PCPnGMoFjC9ddhal5KVIYtAt97ix05A=='
    }
    const lines = /** @type {string[]} */ ([])
    const { dir, reused } = await installAppVariant({
      name: 'yarn-service', dir: app, dependency: 'ms', resolved, cacheDir: join(work, 'cache'), onLine: (line) => lines.push(line)
    })
    const installed = (/** @type {string} */ name) =>
      JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')).version
    expect(reused).toBe(false)
    expect(installed('ms'), lines.join('\n')).toBe('2.0.0')
    expect(installed('bytes'), 'the version yarn.lock holds, not the newest ^3.0.0 allows').toBe('3.0.0')
    expect(JSON.parse(readFileSync(join(dir, '.dyno-variant.json'), 'utf8')).lockfile).toBe('yarn.lock')
    expect(existsSync(join(app, 'node_modules')), "the service's own directory is not installed into").toBe(false)
    expect(existsSync(join(app, 'pnpm-lock.yaml'))).toBe(false)
  }, 120_000)
})

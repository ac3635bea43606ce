// @ts-check
// A service as a subject of a run: started by its own file (on the runtime the run names, so `--runtime` applies) or by its own command,
// told its port in PORT or listening on the one it always uses, ready once a GET of its probe path answers.
import { existsSync, readFileSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { insideApp } from './read-app-config.js'

/** The variable each service's address is in, as dyno passes it: a config may name another for its service. */
const SERVICE_ADDRESS_VARIABLES = Object.freeze({ postgres: 'DATABASE_URL', redis: 'REDIS_URL' })

/**
 * @param {{ dir: string, file: string, config: import('./read-app-config.js').AppConfig }} app
 * @returns {import('../suts/discover-suts.js').SutDescriptor}
 */
export function appSubject ({ dir, file, config }) {
  const { start } = config
  const cwd = start.cwd === undefined ? dir : insideApp(dir, file, '/start/cwd', start.cwd)
  const name = config.name ?? basename(dir).toLowerCase().replace(/[^a-z0-9._-]/g, '-')
  const startFile = start.file === undefined ? null : insideApp(dir, file, '/start/file', resolve(cwd, start.file))
  const command = start.command ?? null
  const version = packageVersion(cwd)
  return {
    name,
    packageName: `app:${name}`,
    dir: cwd,
    startFile: startFile ?? /** @type {string[]} */ (command)[0],
    framework: name,
    frameworkVersion: version,
    validator: 'none',
    skipReason: null,
    unsupportedScenarios: {},
    runtimeKind: startFile ? 'node' : 'command',
    command,
    buildScript: null,
    buildManifest: null,
    supportsWorkers: false,
    unsupportedRuntimes: {},
    label: name,
    runtime: startFile
      ? { name: 'node', kind: 'node', version: process.version }
      : { name: 'command', kind: 'command', version: null },
    launch: startFile ? { command: process.execPath, args: [startFile], eventLoopProbe: true } : null,
    workers: 1,
    readiness: { kind: 'probe', path: start.ready?.path ?? '/', status: start.ready?.status ?? null, port: start.port ?? 'env' },
    env: start.env ?? {},
    serviceVariables: Object.fromEntries(Object.entries(config.services ?? {}).flatMap(([service, { env }]) => {
      const given = SERVICE_ADDRESS_VARIABLES[/** @type {keyof typeof SERVICE_ADDRESS_VARIABLES} */ (service)]
      return env && env !== given ? [[given, env]] : []
    }))
  }
}

/** @param {string} dir @returns {string | null} the version its package.json gives, if it has one */
function packageVersion (dir) {
  const manifest = join(dir, 'package.json')
  if (!existsSync(manifest)) return null
  try {
    const version = JSON.parse(readFileSync(manifest, 'utf8')).version
    return typeof version === 'string' ? version : null
  } catch {
    return null
  }
}

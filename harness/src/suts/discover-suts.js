// @ts-check
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DynoError } from '../errors.js'
import { PACKAGES_DIR } from '../paths.js'
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
 * @property {Record<string, string>} unsupportedScenarios scenarios the framework cannot serve as the contract says, each with the concrete reason
 */

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
    throw new DynoError('DYNO_ERR_SUT_PACKAGE', `${manifestPath}: the package name must start with \`${SUT_PACKAGE_PREFIX}\`, got \`${manifest.name}\``)
  }
  for (const field of ['framework', 'start']) {
    if (typeof meta?.[field] !== 'string' || meta[field] === '') {
      throw new DynoError('DYNO_ERR_SUT_PACKAGE', `${manifestPath}: \`dyno.${field}\` must be a non-empty string, got \`${JSON.stringify(meta?.[field])}\``)
    }
  }
  return {
    name: manifest.name.slice(SUT_PACKAGE_PREFIX.length),
    packageName: manifest.name,
    dir,
    startFile: join(dir, meta.start),
    framework: meta.framework,
    frameworkVersion: frameworkVersion(dir, meta.framework),
    validator: typeof meta.validator === 'string' ? meta.validator : 'none',
    skipReason: typeof meta.skip === 'string' ? meta.skip : null,
    unsupportedScenarios: readUnsupported(manifestPath, meta.unsupportedScenarios)
  }
}

/**
 * @param {string} manifestPath
 * @param {unknown} value `dyno.unsupportedScenarios`: scenario name → the reason, as seen
 * @returns {Record<string, string>}
 */
function readUnsupported (manifestPath, value) {
  if (value === undefined) return {}
  const valid = value !== null && typeof value === 'object' && !Array.isArray(value) &&
    Object.values(value).every((reason) => typeof reason === 'string' && reason.length > 0)
  if (!valid) {
    throw new DynoError('DYNO_ERR_SUT_PACKAGE', `${manifestPath}: \`dyno.unsupportedScenarios\` must map scenario names to reasons, got \`${JSON.stringify(value)}\``)
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

// @ts-check
// A framework's releases as the registry npm is configured with lists them (`npm view <package> time`, so the user's registry
// and credentials apply), each with the date the registry says it was published. Prereleases are not releases.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import semver from 'semver'
import { DynoError } from '../../platform/errors.js'

const run = promisify(execFile)
/** A package name as the registry allows it (validate-npm-package-name's rule, old names' capitals included): never an option. */
const NPM_PACKAGE_NAME = /^(?:@[a-z0-9~][a-z0-9._~-]*\/)?[a-zA-Z0-9~][a-zA-Z0-9._~-]*$/
/** A time as RFC 3339 writes it, which is what a record keeps (timeline-record.schema.json). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i

/**
 * @param {unknown} name @returns {string | null} why it is not an npm package's name, or null
 */
export function npmPackageProblem (name) {
  if (typeof name !== 'string' || name.length === 0 || name.length > 214 || !NPM_PACKAGE_NAME.test(name)) {
    return `${JSON.stringify(name)?.slice(0, 80)} is not an npm package's name (letters, digits, \`-._~\`, an @scope/ before it, 214 ` +
      'characters at most)'
  }
  return null
}

/**
 * @typedef {{ version: string, publishedAt: string | null }} Release publishedAt: as the registry gives it (ISO 8601), null when it
 *   gives none
 */

/**
 * @param {string} framework the npm package @param {{ signal?: AbortSignal, entry: string }} options entry: as typed, for messages
 * @returns {Promise<Release[]>} oldest version first (semver order)
 * @throws {DynoError} DYNO_ERR_UNKNOWN_VERSION: the registry cannot be asked, or answers with no release
 */
export async function registryReleases (framework, { signal, entry }) {
  const problem = npmPackageProblem(framework)
  if (problem) throw new DynoError('DYNO_ERR_UNKNOWN_VERSION', `\`${entry}\`: ${problem}; the registry was not asked`)
  let times
  try {
    // `--` ends npm's options: whatever the name, npm takes it as the package to look up.
    const { stdout } = await run('npm', ['view', '--json', '--', framework, 'time'], { timeout: 60_000, signal, maxBuffer: 64 * 2 ** 20 })
    times = JSON.parse(stdout)
  } catch (error) {
    const said = /** @type {{ message: string }} */ (error)
    throw new DynoError('DYNO_ERR_UNKNOWN_VERSION', `\`${entry}\`: the registry could not be asked for ${framework}'s releases (npm view ` +
      `${framework} time): ${said.message.split('\n')[0]}`)
  }
  const releases = Object.entries(times && typeof times === 'object' ? times : {})
    .filter(([version]) => semver.valid(version) && !semver.prerelease(version))
    .map(([version, publishedAt]) => ({
      version,
      publishedAt:
        typeof publishedAt === 'string' && RFC3339.test(publishedAt) && !Number.isNaN(Date.parse(publishedAt)) ? publishedAt : null
    }))
    .sort((a, b) => semver.compare(a.version, b.version))
  if (releases.length === 0) throw new DynoError('DYNO_ERR_UNKNOWN_VERSION', `\`${entry}\`: the registry lists no release of ${framework}`)
  return releases
}

// @ts-check
// A framework's releases as the registry npm is configured with lists them (`npm view <package> time`, so the user's registry
// and credentials apply), each with the date the registry says it was published. Prereleases are not releases.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import semver from 'semver'
import { DynoError } from '../../platform/errors.js'

const run = promisify(execFile)

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
  let times
  try {
    const { stdout } = await run('npm', ['view', framework, 'time', '--json'], { timeout: 60_000, signal, maxBuffer: 64 * 2 ** 20 })
    times = JSON.parse(stdout)
  } catch (error) {
    const said = /** @type {{ message: string }} */ (error)
    throw new DynoError('DYNO_ERR_UNKNOWN_VERSION', `\`${entry}\`: the registry could not be asked for ${framework}'s releases (npm view ` +
      `${framework} time): ${said.message.split('\n')[0]}`)
  }
  const releases = Object.entries(times && typeof times === 'object' ? times : {})
    .filter(([version]) => semver.valid(version) && !semver.prerelease(version))
    .map(([version, publishedAt]) => ({ version, publishedAt: typeof publishedAt === 'string' && !Number.isNaN(Date.parse(publishedAt)) ? publishedAt : null }))
    .sort((a, b) => semver.compare(a.version, b.version))
  if (releases.length === 0) throw new DynoError('DYNO_ERR_UNKNOWN_VERSION', `\`${entry}\`: the registry lists no release of ${framework}`)
  return releases
}

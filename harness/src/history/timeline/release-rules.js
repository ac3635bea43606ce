// @ts-check
// Which of a framework's releases a timeline measures: those in the range given, then thinned by a rule (`--releases`) and kept to
// the newest majors (`--latest-majors`). One rule per entry below; adding one is a line here, and help and docs take it from there.
import semver from 'semver'
import { DynoError } from '../../platform/errors.js'

/**
 * @typedef {import('./registry-releases.js').Release} Release
 * @typedef {{ description: string, keep: (releases: Release[]) => Release[] }} ReleaseRule releases: oldest first, one range's
 */

/** @param {Release[]} releases @param {(version: string) => string} group @returns {Release[]} the newest of each group, oldest first */
const newestOfEach = (releases, group) => [...new Map(releases.map((release) => [group(release.version), release])).values()]

/** @type {Readonly<Record<string, ReleaseRule>>} */
export const RELEASE_RULES = Object.freeze({
  'minor-tips': {
    description: 'the last patch of every minor (4.18.3, 4.19.2, …)',
    keep: (releases) => newestOfEach(releases, (version) => `${semver.major(version)}.${semver.minor(version)}`)
  },
  'major-tips': {
    description: 'the last release of every major',
    keep: (releases) => newestOfEach(releases, (version) => String(semver.major(version)))
  },
  every: {
    description: 'every release',
    keep: (releases) => releases
  }
})

export const DEFAULT_RELEASE_RULE = 'minor-tips'

/**
 * @param {Release[]} releases every release, oldest first
 * @param {{ entry: string, range: string, rule: string, latestMajors: number }} choice latestMajors: 0 for every major
 * @returns {Release[]} oldest first
 * @throws {DynoError} DYNO_ERR_UNKNOWN_VERSION: the range matches no release
 */
export function chooseReleases (releases, { entry, range, rule, latestMajors }) {
  const inRange = releases.filter((release) => semver.satisfies(release.version, range))
  if (inRange.length === 0) {
    const majors = newestOfEach(releases, (version) => String(semver.major(version))).slice(-4).map((release) => release.version)
    throw new DynoError(
      'DYNO_ERR_UNKNOWN_VERSION',
      `\`${entry}\`: the range \`${range}\` matches no release; allowed: a range that matches ` +
        `one of the ${releases.length} releases from ${releases[0].version} to ${releases[releases.length - 1].version} (the ` +
          'newest of the ' +
        `last majors: ${majors.join(', ')})`
    )
  }
  const majors = [...new Set(inRange.map((release) => semver.major(release.version)))].slice(latestMajors > 0 ? -latestMajors : 0)
  return RELEASE_RULES[rule].keep(inRange.filter((release) => majors.includes(semver.major(release.version))))
}

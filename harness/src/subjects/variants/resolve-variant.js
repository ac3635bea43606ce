// @ts-check
// A variant resolved before anything is installed or started: a version, range or dist-tag against the registry npm is
// configured with (`npm view`, so the user's registry and credentials apply), or a directory checked to hold the framework.
import { execFile } from 'node:child_process'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import semver from 'semver'
import { DynoError } from '../../platform/errors.js'
import { createRegistryFacts, RegistryQuestionError } from './registry-facts.js'

const run = promisify(execFile)

/**
 * @typedef {object} ResolvedVariant
 * @property {'npm' | 'path'} kind
 * @property {string} spec as typed after `@`
 * @property {string} version the framework's version the variant runs: the one the spec resolved to, or the checkout's package.json
 * @property {string | null} integrity npm: the registry's integrity of that version
 * @property {string} [dir] path: the checkout, absolute
 * @property {string | null} [commit] path: the checkout's git commit (null: not a git tree)
 * @property {boolean | null} [dirty] path: whether the tree has changes not committed
 */

/** @param {string} entry @param {string} message */
const unknownVersion = (entry, message) => new DynoError('DYNO_ERR_UNKNOWN_VERSION', `\`--frameworks\` \`${entry}\`: ${message}`)

/**
 * @param {string} entry as typed, for messages @param {string} framework the npm package @param {string} spec version, range or tag
 * @param {{ registry?: import('./registry-facts.js').RegistryFacts, signal?: AbortSignal }} [options] registry: shared by the
 *   variants of one command, so that each framework is asked once
 * @returns {Promise<ResolvedVariant>}
 */
export async function resolveNpmVariant (entry, framework, spec, { signal, registry = createRegistryFacts({ signal }) } = {}) {
  const { versions, tags } = await asked(
    () => registry.versionsOf(framework),
    (said) => unknownVersion(entry, `the registry could not be asked for ${framework}'s versions (npm view): ${said}`)
  )
  const tagged = Object.hasOwn(tags, spec) ? tags[spec] : null
  const version = semver.valid(spec) ? (versions.includes(spec) ? spec : null) : tagged ?? semver.maxSatisfying(versions, spec)
  if (!version) {
    const newest = [...new Set(versions.filter((candidate) => !semver.prerelease(candidate)).map((candidate) => semver.major(candidate)))]
      .map((major) => semver.maxSatisfying(versions, `^${major}.0.0`)).filter(Boolean).slice(-4)
    throw unknownVersion(
      entry,
      `${framework} has no ${semver.valid(spec) ? 'version' : semver.validRange(spec) ? 'version in the range' : 'dist-tag'} ` +
        `\`${spec}\` on the registry; allowed: a published version, a range that matches one, or a dist-tag ` +
        `(${Object.entries(tags)
          .map(([tag, tagged]) => `${tag}: ${tagged}`)
          .join(', ')}; the newest of the last majors: ${newest.join(', ')})`
    )
  }
  const integrity = await asked(
    () => registry.integrityOf(framework, version),
    (said) => unknownVersion(entry, `the registry could not be asked for ${framework}@${version}'s integrity (npm view): ${said}`)
  )
  return { kind: 'npm', spec, version, integrity }
}

/**
 * @template T
 * @param {() => Promise<T>} ask @param {(said: string) => Error} failure
 * @returns {Promise<T>}
 */
async function asked (ask, failure) {
  try {
    return await ask()
  } catch (error) {
    if (error instanceof RegistryQuestionError) throw failure(error.message)
    throw error
  }
}

/**
 * @param {string} entry as typed @param {string} framework the npm package the directory must hold @param {string} path as typed
 * @param {string} base what a relative path is relative to
 * @returns {Promise<ResolvedVariant>}
 */
export async function resolvePathVariant (entry, framework, path, base) {
  const dir = resolve(base, path)
  const manifest = checkedPathManifest(entry, framework, path, dir)
  const git = async (/** @type {string[]} */ args) => (await run('git', ['-C', dir, ...args], { timeout: 30_000 })).stdout.trim()
  let commit = null
  let dirty = null
  try {
    if (await git(['rev-parse', '--show-toplevel'])) {
      commit = await git(['rev-parse', 'HEAD'])
      dirty = (await git(['status', '--porcelain', '--untracked-files=no', '--', '.'])).length > 0
    }
  } catch {
    // Not a git tree (a copy of a package): no commit to record.
  }
  return { kind: 'path', spec: `path:${path}`, version: String(manifest.version ?? '0.0.0'), integrity: null, dir, commit, dirty }
}

/**
 * The package.json of a `path:` variant's directory, which must be the framework's: checked without touching the registry.
 * @param {string} entry @param {string} framework @param {string} path as typed @param {string} dir resolved
 * @returns {{ name?: string, version?: string }}
 */
export function checkedPathManifest (entry, framework, path, dir) {
  const allowed = `a directory holding the ${framework} package (its package.json named \`${framework}\`)`
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw unknownVersion(entry, `${dir} is not a directory; allowed: ${allowed}`)
  const manifestPath = join(dir, 'package.json')
  let manifest
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8'))
  } catch (error) {
    throw unknownVersion(
      entry,
      `${manifestPath} cannot be read (${/** @type {Error} */ (error).message.split('\n')[0]}); allowed: ${allowed}`
    )
  }
  if (manifest.name !== framework) {
    throw unknownVersion(entry, `${dir} holds \`${manifest.name}\`, not ${framework}; allowed: ${allowed} (from \`${path}\`)`)
  }
  return manifest
}

// @ts-check
// What the registry npm is configured with says of a framework (`npm view`, so the user's registry and credentials apply),
// asked once per command however many of its versions are named: a timeline of 40 releases asks npm twice, not 80 times at
// once (the registry then answered some of 270 parallel questions with nothing).
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'

const run = promisify(execFile)
const VIEW_TIMEOUT_MS = 60_000

/**
 * A question npm could not answer: the message says what npm said.
 */
export class RegistryQuestionError extends Error {}

/**
 * @typedef {object} RegistryFacts
 * @property {(framework: string) => Promise<{ versions: string[], tags: Record<string, string> }>} versionsOf every published
 *   version and the registry's own dist-tags
 * @property {(framework: string, version: string) => Promise<string | null>} integrityOf the registry's integrity of one version
 */

/**
 * @param {{ signal?: AbortSignal }} [options]
 * @returns {RegistryFacts}
 */
export function createRegistryFacts ({ signal } = {}) {
  /** @type {Map<string, Promise<{ versions: string[], tags: Record<string, string> }>>} */
  const versions = new Map()
  /** @type {Map<string, Promise<Map<string, string>>>} */
  const integrities = new Map()

  const view = async (/** @type {string[]} */ args) => {
    let stdout
    try {
      ;({ stdout } = await run('npm', ['view', '--json', '--', ...args], { timeout: VIEW_TIMEOUT_MS, signal, maxBuffer: 64 * 2 ** 20 }))
    } catch (error) {
      const said = /** @type {{ stdout?: string, message: string }} */ (error)
      throw new RegistryQuestionError(npmSaid(said.stdout) || said.message)
    }
    if (!stdout.trim()) return null
    try {
      return JSON.parse(stdout)
    } catch (error) {
      throw new RegistryQuestionError(`npm's answer is not JSON (${/** @type {Error} */ (error).message})`)
    }
  }

  const askVersions = async (/** @type {string} */ framework) => {
    const facts = await view([framework, 'versions', 'dist-tags'])
    if (!facts) throw new RegistryQuestionError('npm answered nothing')
    /** @type {string[]} */
    const listed = [].concat(facts.versions ?? []).filter((version) => typeof version === 'string')
    // The registry's own dist-tags only: `constructor` or `toString` is a spec like any other, not a property every object has.
    const tags = Object.fromEntries(Object.entries(facts['dist-tags'] ?? {}).filter(([, tagged]) => typeof tagged === 'string'))
    return { versions: listed, tags }
  }

  // Every released version's integrity in one question (`@>=0.0.0`: npm reads `@*` as the latest only); a prerelease (a
  // dist-tag may name one) is asked on its own.
  const askIntegrities = async (/** @type {string} */ framework) => {
    const answer = await view([`${framework}@>=0.0.0`, 'version', 'dist.integrity'])
    const byVersion = new Map()
    for (const row of /** @type {Array<Record<string, unknown>>} */ ([]).concat(answer ?? [])) {
      const version = row?.version
      const integrity = row?.['dist.integrity']
      if (typeof version === 'string' && typeof integrity === 'string') byVersion.set(version, integrity)
    }
    return byVersion
  }

  return {
    versionsOf: (framework) => memo(versions, framework, () => askVersions(framework)),
    async integrityOf (framework, version) {
      const known = (await memo(integrities, framework, () => askIntegrities(framework))).get(version)
      if (known) return known
      const single = await view([`${framework}@${version}`, 'dist.integrity'])
      return typeof single === 'string' ? single : null
    }
  }
}

/**
 * @template T
 * @param {Map<string, Promise<T>>} cache @param {string} key @param {() => Promise<T>} ask
 */
function memo (cache, key, ask) {
  let pending = cache.get(key)
  if (!pending) {
    pending = ask()
    cache.set(key, pending)
  }
  return pending
}

/** npm's own summary of an error it printed as JSON, else its first line. @param {string | undefined} text */
function npmSaid (text) {
  try {
    return JSON.parse(text ?? '').error?.summary ?? ''
  } catch {
    return (text ?? '').split('\n')[0]
  }
}

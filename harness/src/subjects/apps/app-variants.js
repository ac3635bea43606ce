// @ts-check
// The variants of a service given by --app: an entry names the service (by its name, or by a dependency of its package.json bare:
// as it is installed) or a version of one of its dependencies (`express@5.1.0`, `express@^4`, `express@latest`, a checkout
// `express@path:../express`), run from a cached
// copy of the service installed with that version (app-variant-copy.js). Its results are called `shop (express@5.1.0)`.
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { DynoError, isDynoError } from '../../platform/errors.js'
import { invalidOption } from '../../platform/options/option-parsers.js'
import { parseFrameworkEntry, variantLabel } from '../variants/framework-entry.js'
import { createRegistryFacts } from '../variants/registry-facts.js'
import { checkedPathManifest, resolveNpmVariant, resolvePathVariant } from '../variants/resolve-variant.js'
import { couldBeVersion, variantOrigin } from '../variants/variant-source.js'
import { variantPathBase } from '../variants/variant-subjects.js'
import { appLockfile } from './app-lockfile.js'
import { installAppVariant } from './app-variant-copy.js'
import { appSubject } from './app-subject.js'
import { readAppConfig } from './read-app-config.js'

/**
 * @param {{ name: string, dir: string, sut: import('../suts/discover-suts.js').SutDescriptor }} app the service as --app read it
 * @returns {import('../variants/variant-source.js').VariantSource}
 */
export function appVariants ({ name, dir, sut }) {
  const ownVersion = (/** @type {string} */ dependency) => readJson(join(dir, 'node_modules', dependency, 'package.json'))?.version ??
    `not installed, ${dependenciesOf(dir)[dependency]} in package.json`
  return {
    pair: `two versions of one dependency of ${name} (\`express@4.22.1 express@5.1.0\`, or its own pin by the bare name)`,
    check: (entries, flag, raw) => checkEntries({ name, dir }, entries, flag, raw),
    async select (entries, { cacheDir, install = true, signal, onLine = () => {} }) {
      checkEntries({ name, dir }, entries, '--frameworks')
      const registry = createRegistryFacts({ signal })
      const lockfile = appLockfile(dir)?.file ?? null
      const parsed = entries.map(parseFrameworkEntry)
      const variants = await Promise.all(parsed.map(async (entry) => {
        if (!entry.spec) return null
        const resolved = entry.spec.kind === 'npm'
          ? await resolveNpmVariant(entry.text, entry.name, entry.spec.text, { signal, registry })
          : await resolvePathVariant(entry.text, entry.name, entry.spec.path, variantPathBase())
        return { ...resolved, entry: entry.text, label: `${name} (${variantLabel(entry.name, resolved)})`, lockfile }
      }))
      const selected = []
      for (const [index, entry] of parsed.entries()) {
        const variant = variants[index]
        if (!variant) selected.push(sut)
        else if (!install) selected.push({ ...sut, label: variant.label, variant })
        else selected.push(await installed(entry.name, variant, { cacheDir, signal, onLine: (line) => onLine(entry.text, line) }))
      }
      return selected
    },
    labelOf: (records, entry) => records.find((record) => record.sut.variant?.entry === entry)?.sut.variant?.label ?? name,
    describe (records, entry) {
      const variant = records.find((record) => record.sut.variant?.entry === entry)?.sut.variant
      const { name: dependency } = parseFrameworkEntry(entry)
      if (!variant) return dependency === name ? `${name}: as it is installed` : `${entry}: ${name}'s own, ${ownVersion(dependency)}`
      const whose = variant.lockfile?.startsWith('..') ? `its workspace's lockfile, made ${name}'s alone:` : `${name}'s`
      const installedBy = variant.lockfile
        ? `with ${whose} ${variant.lockfile}`
        : `by pnpm without a lockfile (${name} has none), its other dependencies resolved anew`
      return `${variant.label}: ${variantOrigin(variant)}, installed ${installedBy}`
    }
  }

  /**
   * The service's copy with the variant installed, as the subject of its rows; one that could not be installed fails its rows.
   * @param {string} dependency @param {import('../variants/variant-subjects.js').Variant} variant
   * @param {{ cacheDir: string, signal?: AbortSignal, onLine: (line: string) => void }} options
   * @returns {Promise<import('../suts/discover-suts.js').SutDescriptor>}
   */
  async function installed (dependency, variant, { cacheDir, signal, onLine }) {
    try {
      const copy = await installAppVariant({ name, dir, dependency, resolved: variant, cacheDir, signal, onLine })
      const read = readAppConfig(copy.dir)
      return { ...appSubject({ ...read, config: { ...read.config, name } }), label: variant.label, variant }
    } catch (error) {
      if (!isDynoError(error) || error.code !== 'DYNO_ERR_VARIANT_INSTALL') throw error
      const installFailure = `the variant ${variant.entry} could not be installed: ${error.message}`
      return { ...sut, label: variant.label, variant, installFailure }
    }
  }
}

/**
 * Each entry the service by its name, or a dependency its package.json declares, bare or with a version, range or dist-tag.
 * @param {{ name: string, dir: string }} app @param {string[]} entries @param {string} flag @param {unknown} [raw]
 * @throws {DynoError} DYNO_ERR_UNKNOWN_FRAMEWORK naming the entry and the dependencies allowed, DYNO_ERR_UNKNOWN_VERSION for a `path:`
 *   that is not a checkout of the dependency, DYNO_ERR_INVALID_OPTION for what cannot be a version
 */
function checkEntries ({ name, dir }, entries, flag, raw = entries.join(',')) {
  const dependencies = Object.keys(dependenciesOf(dir))
  const allowed = `${name}, or a dependency of its package.json, bare (as installed) or with \`@<version>\`, \`@<range>\`, ` +
    `\`@<dist-tag>\` or \`@path:<dir>\` (${dependencies.join(', ') || `${join(dir, 'package.json')} declares none`})`
  for (const entry of entries.map(parseFrameworkEntry)) {
    if (entry.name === name && !entry.spec) continue
    if (!dependencies.includes(entry.name)) {
      throw new DynoError('DYNO_ERR_UNKNOWN_FRAMEWORK', `\`${flag}\` \`${entry.text}\`: ${entry.name} is not a dependency of ` +
        `${name} (${join(dir, 'package.json')}); allowed: ${allowed}`)
    }
    if (entry.spec?.kind === 'path') {
      if (entry.spec.path.trim() === '') throw invalidOption(flag, raw, `${allowed}; \`${entry.text}\` names no directory`)
      checkedPathManifest(entry.text, entry.name, entry.spec.path, resolve(variantPathBase(), entry.spec.path))
    } else if (entry.spec && !couldBeVersion(entry.spec.text)) {
      throw invalidOption(flag, raw, `${allowed}; \`${entry.spec.text}\` is neither a version, a range nor a dist-tag`)
    }
  }
}

/** @param {string} dir @returns {Record<string, string>} the dependencies its package.json declares */
function dependenciesOf (dir) {
  const declared = readJson(join(dir, 'package.json'))?.dependencies
  return declared && typeof declared === 'object' ? Object.assign(Object.create(null), declared) : Object.create(null)
}

/** @param {string} path @returns {any} its JSON, or null where there is none that parses */
function readJson (path) {
  try {
    return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null
  } catch {
    return null
  }
}
